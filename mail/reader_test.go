package mail

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"navarch/test/racesplit"
)

// mailWith is a reply from alice to a navarch request with the given extra header lines,
// content type and body.
func mailWith(header, ctype, body string) []byte {
	return []byte("From: Alice Marino <alice@example.org>\r\nTo: navarch@host.example\r\nSubject: Re: [navarch lep-7f3a] T3 A12 orders\r\n" +
		"Message-ID: <r-1@example.org>\r\nMIME-Version: 1.0\r\n" + header + "Content-Type: " + ctype + "\r\n\r\n" + body)
}

// request parses a mail and reads its request, failing the test on an error.
func request(t *testing.T, raw []byte) (*Incoming, Request) {
	t.Helper()
	in, err := Parse(raw, Options{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	r, err := ReadRequest(in.Subject, in.Text)
	if err != nil {
		t.Fatalf("ReadRequest(%q): %v", in.Text, err)
	}
	return in, r
}

// A long order line that Thunderbird wraps (format=flowed, RFC 3676) is read as one line.
func TestFormatFlowed(t *testing.T) {
	long := "BAR-LANT MOVE 0610 0510 FIRE SIR-EGY1 # round the shoal first, then fire at the galley"
	body := "KEY k7q2-vv9d\r\nBAR-LANT MOVE 0610 0510 \r\nFIRE SIR-EGY1 # round the shoal first, then \r\nfire at the galley\r\n\r\nOn 30/11/2026 09:00, navarch wrote:\r\n> BAR-LANT PASS\r\n"
	_, r := request(t, mailWith("", "text/plain; charset=utf-8; format=flowed", body))
	if len(r.Orders) != 1 || r.Orders[0].Text != "BAR-LANT MOVE 0610 0510 FIRE SIR-EGY1" {
		t.Errorf("flowed orders %+v, want the one line of %q", r.Orders, long)
	}
	_, r = request(t, mailWith("", `text/plain; charset="utf-8"; format="flowed"; delsp="yes"`, "BAR-LANT MOVE 06 \r\n10 0510\r\n"))
	if len(r.Orders) != 1 || r.Orders[0].Text != "BAR-LANT MOVE 0610 0510" {
		t.Errorf("flowed with DelSp: %+v", r.Orders)
	}
}

// A non-breaking space or a tab after KEY or GAME (as phones type them) is a space.
func TestSpaceAfterKey(t *testing.T) {
	_, r := request(t, mailWith("", "text/plain; charset=utf-8", "KEY\u00a0k7q2-vv9d\r\nGAME\tlep-7f3a\r\nBAR-LANT\u00a0PASS\r\n"))
	if r.Key != "k7q2-vv9d" || r.Game != "lep-7f3a" || len(r.Orders) != 1 || r.Orders[0].Text != "BAR-LANT PASS" {
		t.Errorf("request %+v", r)
	}
}

// The game line of a quoted checkpoint never names the game, marked with ">" or not, in
// text or in HTML with nested quotes.
func TestQuotedGameLine(t *testing.T) {
	checkpoint := "-----BEGIN NAVARCH CHECKPOINT-----\r\ngame c646ef0e\r\nsize 214\r\n-----END NAVARCH CHECKPOINT-----\r\n"
	for name, raw := range map[string][]byte{
		"Outlook": mailWith("", "text/plain; charset=utf-8", "BAR-LANT PASS\r\n\r\nVon: navarch <navarch@host.example>\r\nGesendet: Montag, 30. November 2026 09:00\r\n"+
			"An: Alice\r\nBetreff: Züge\r\n\r\nYour order form:\r\nBAR-VEN1 PASS\r\ngame c646ef0e\r\n"),
		"pasted":      mailWith("", "text/plain; charset=utf-8", "BAR-LANT PASS\r\n"+checkpoint),
		"marked":      mailWith("", "text/plain; charset=utf-8", "BAR-LANT PASS\r\n\r\nOn Mon, 30 Nov 2026, navarch <navarch@host.example> wrote:\r\n> "+strings.ReplaceAll(checkpoint, "\r\n", "\r\n> ")),
		"nested HTML": mailWith("", "text/html; charset=utf-8", `<div>BAR-LANT PASS</div><blockquote type="cite">Your order form:<blockquote>older</blockquote>BAR-VEN1 PASS<br>game c646ef0e</blockquote>`),
	} {
		_, r := request(t, raw)
		if r.Game != "lep-7f3a" || len(r.Orders) != 1 || r.Orders[0].Text != "BAR-LANT PASS" {
			t.Errorf("%s: request %+v: the quote was read", name, r)
		}
	}
}

// photo is a phone photo's worth of bytes (n), base64 as a mail carries it.
func photo(n int) string {
	b := make([]byte, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	e := base64.StdEncoding.EncodeToString(b)
	var w strings.Builder
	for len(e) > 76 {
		w.WriteString(e[:76] + "\r\n")
		e = e[76:]
	}
	return w.String() + e + "\r\n"
}

// A mail with an ordinary phone photo attached (4 MB) is read: the cap is on the text.
func TestPhotoAttached(t *testing.T) {
	body := "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nBAR-LANT PASS\r\n\r\nSent from my iPhone\r\n" +
		"--b\r\nContent-Type: image/jpeg; name=IMG_0042.jpeg\r\nContent-Disposition: inline; filename=IMG_0042.jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		photo(4<<20) + "--b--\r\n"
	raw := mailWith("", `multipart/mixed; boundary="b"`, body)
	_, r := request(t, raw)
	if len(r.Orders) != 1 || r.Orders[0].Text != "BAR-LANT PASS" {
		t.Errorf("orders %+v", r.Orders)
	}
	huge := mailWith("", "text/plain; charset=utf-8", strings.Repeat("BAR-LANT PASS\r\n", DefaultMaxText/10))
	if _, err := Parse(huge, Options{}); !errors.Is(err, ErrTooBig) {
		t.Errorf("a text over the cap: %v, want ErrTooBig", err)
	}
	bigHTML := "--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nBAR-LANT PASS\r\n--b\r\nContent-Type: text/html\r\n\r\n<div>BAR-LANT PASS</div>" +
		strings.Repeat("<div style=\"font-family: Calibri\">quoted</div>", DefaultMaxText/8) + "\r\n--b--\r\n"
	if _, r := request(t, mailWith("", `multipart/alternative; boundary="b"`, bigHTML)); len(r.Orders) != 1 {
		t.Errorf("a long HTML alternative: %+v", r.Orders)
	}
	broken := "--b\r\nContent-Type: text/plain\r\n\r\nBAR-LANT PASS\r\n--b\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n" + photo(1000)
	if _, r := request(t, mailWith("", `multipart/mixed; boundary="b"`, broken)); len(r.Orders) != 1 {
		t.Errorf("a photo cut off: %+v", r.Orders)
	}
	if _, err := Parse(raw, Options{MaxSize: 1 << 20}); !errors.Is(err, ErrTooBig) {
		t.Errorf("a message over the raw cap: %v, want ErrTooBig", err)
	}
}

// X-Auto-Response-Suppress and Precedence ask not to be auto-answered; they do not make a
// mail automatic (Bulk, not NoReply).
func TestBulkHeaders(t *testing.T) {
	for header, want := range map[string]string{
		"X-Auto-Response-Suppress: All\r\n": "X-Auto-Response-Suppress: All",
		"Precedence: bulk\r\n":              "Precedence: bulk",
		"Precedence: List\r\n":              "Precedence: list",
		"":                                  "",
	} {
		in, r := request(t, mailWith(header, "text/plain; charset=utf-8", "KEY k7q2-vv9d\r\nBAR-LANT PASS\r\n"))
		if in.NoReply != "" || in.Bulk != want || r.Key != "k7q2-vv9d" {
			t.Errorf("%q: no-reply %q, bulk %q (want %q), key %q", header, in.NoReply, in.Bulk, want, r.Key)
		}
	}
	in, err := parseFile(t, "vacation.eml") // X-Autoreply and Precedence: automatic, and bulk
	if err != nil || in.NoReply == "" || in.Bulk != "Precedence: bulk" {
		t.Errorf("vacation: %+v, %v", in, err)
	}
}

// Base64 without its padding is read.
func TestBase64WithoutPadding(t *testing.T) {
	e := strings.TrimRight(base64.StdEncoding.EncodeToString([]byte("KEY k7q2-vv9d\r\nBAR-LANT PASS!\r\n")), "=")
	_, r := request(t, mailWith("Content-Transfer-Encoding: base64\r\n", "text/plain; charset=utf-8", e+"\r\n"))
	if r.Key != "k7q2-vv9d" || len(r.Orders) != 1 {
		t.Errorf("request %+v", r)
	}
}

// TestHTMLQuotesByStructure: the quotes and signatures of the common clients' HTML go, by
// their elements, however deep they nest.
func TestHTMLQuotesByStructure(t *testing.T) {
	for name, h := range map[string]string{
		"gmail":       `<div dir="ltr">A PASS</div><div class="gmail_quote"><div class="gmail_attr">On Mon, navarch wrote:</div><blockquote class="gmail_quote">B<blockquote>C</blockquote>D</blockquote></div>`,
		"thunderbird": `<p>A PASS</p><div class="moz-cite-prefix">On 30/11/2026, navarch wrote:</div><blockquote type="cite">B</blockquote><pre class="moz-signature">-- Alice</pre>`,
		"owa":         `<div>A PASS</div><div id="appendonsend"></div><hr tabindex="-1"><div id="divRplyFwdMsg"><b>From:</b> navarch</div><div>B PASS</div>`,
		"outlook":     `<div class=WordSection1><p class=MsoNormal>A PASS</p><div style='border:none;border-top:solid #E1E1E1 1.0pt'><p><b>Von:</b> navarch</p></div><p>B PASS</p></div>`,
		"yahoo":       `<div>A PASS</div><div id="yahoo_quoted_123" class="yahoo_quoted"><div>B PASS</div></div>`,
		"hotmail":     `<div>A PASS<div><hr id="stopSpelling">Date: today<br>B PASS</div></div>`,
		"proton":      `<div>A PASS</div><div class="protonmail_quote"><blockquote class="protonmail_quote">B</blockquote></div>`,
		"signature":   `<div>A PASS</div><div id="Signature">Alice Marino</div><div class="gmail_signature">Alice</div>`,
		"a lone From": `<div>A PASS</div><div><hr size=3></div><p><b>From:</b> navarch</p><p>B PASS</p>`,
	} {
		if got := strings.TrimSpace(HTMLText(h)); got != "A PASS" {
			t.Errorf("%s: %q, want only A PASS", name, got)
		}
	}
	if got := HTMLText("<table><tr><td>A</td><td>MOVE&nbsp;0610</td></tr><tr><td>B PASS</td></tr></table><pre>C  PASS\nD PASS</pre>"); strings.Fields(got)[0] != "A" ||
		!strings.Contains(got, "A MOVE\u00a00610\n") || !strings.Contains(got, "\nC  PASS\nD PASS") {
		t.Errorf("rows and pre: %q", got)
	}
}

// Hostile HTML: deep nesting is read to a bound and never panics; the text above it stays.
func TestHTMLDeeplyNested(t *testing.T) {
	racesplit.Long(t) // the reader runs on one goroutine: the detector finds nothing
	for _, tag := range []string{"div", "blockquote", "b", "table"} {
		h := "A PASS" + strings.Repeat("<"+tag+">", 100000) + "deep" + strings.Repeat("</"+tag+">", 100000)
		got := HTMLText(h)
		if !strings.HasPrefix(got, "A PASS") || strings.Contains(got, "deep") && tag == "blockquote" {
			t.Errorf("%s nested 100000 deep: %.40q", tag, got)
		}
	}
}

// Many rules and empty elements cost the HTML reader no more than their length (its
// look-ahead for a header under a rule is bounded).
func TestHTMLManyRules(t *testing.T) {
	h := "A PASS" + strings.Repeat("<hr><span></span><div style=\"border-top:1px\"><b></b></div>", 4000)
	if got := HTMLText(h); !strings.HasPrefix(got, "A PASS") {
		t.Errorf("%.40q", got)
	}
}

// No input panics the reader (the fuzz targets try more).
func TestReaderBadInput(t *testing.T) {
	inputs := []string{"", "\x00", ">", "-----BEGIN PGP SIGNED MESSAGE-----", "-----BEGIN PGP SIGNED MESSAGE-----\nHash: x",
		"-----BEGIN NAVARCH INFO-----\ngame x", strings.Repeat("On x wrote:\n", 1000), strings.Repeat("\xff\xfe", 100),
		strings.Repeat("> ", 10000), "From: a\nTo: b", "<html><blockquote", "<<<>>>", strings.Repeat("a ", 100000)}
	for _, s := range inputs {
		ReadReply(s, s, s)
		HTMLText(s)
		unflow(s, true)
		ReadRequest(s, s)
		Parse([]byte(s), Options{})
		Parse(mailWith("", "text/plain; format=flowed", s), Options{})
		Parse(mailWith("Content-Transfer-Encoding: base64\r\n", "text/html", s), Options{})
	}
	if got := padBase64([]byte("Content-Transfer-Encoding: base64\n\nQUJD\nRA\n--b\n")); !bytes.Contains(got, []byte("RA==\n")) {
		t.Errorf("padBase64: %q", got)
	}
}
