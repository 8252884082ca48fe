package templates

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"navarch/adjudicator"
	"navarch/adjudicator/lepanto"
)

// chromium is Debian's headless browser; NAVARCH_BROWSER=1 (CI) makes its absence a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("NAVARCH_BROWSER") == "1" {
		t.Fatal("NAVARCH_BROWSER=1 but no chromium: apt-get install -y chromium")
	}
	t.Skip("no chromium (apt-get install -y chromium; NAVARCH_BROWSER=1 makes this a failure)")
	return ""
}

// browse runs headless Chromium on a page at a window size with more arguments (--dump-dom,
// --screenshot=FILE) and returns its standard output.
func browse(t *testing.T, bin, page string, w, h int, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), fmt.Sprintf("--window-size=%d,%d", w, h)}
	base = append(base, "--allow-file-access-from-files")
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String()
}

// frameSpec is a mail's page shown in a frame of w × h CSS pixels, its measures labelled id.
type frameSpec struct {
	page, id string
	w, h     int
}

// frames is a page that shows each spec's page in a frame of its own, one under the other (or
// side by side, for a screenshot): headless Chromium's window is at least 500 px wide, so a
// phone's width is a frame's, and each frame lays its mail out in its own viewport. Once a
// mail has loaded, a script writes into the DOM, for --dump-dom to read back
// (--allow-file-access-from-files lets it read the frame): the spec's id, the mail's scroll
// width and the frame's width, and every word that the browser broke across lines although
// it would fit on one (brokenWords). The page's load, which --dump-dom waits for, waits for
// every frame's.
func frames(specs []frameSpec, sideBySide bool) string {
	var b strings.Builder
	// The script comes first and each frame names it in its onload attribute: a frame may
	// load before the parser reaches a script after it.
	b.WriteString(`<!DOCTYPE html><html><head><script>
function measure(frame, id) {
var doc = frame.contentDocument, e = doc.documentElement;
var d = document.createElement("div");
d.textContent = "widths " + id + " " + e.scrollWidth + " " + e.clientWidth + " broken " + brokenWords(doc) + " end";
document.body.appendChild(d); }
`)
	b.WriteString(brokenWordsJS)
	b.WriteString("</script></head><body style=\"margin: 0\">\n")
	x := 0
	for _, f := range specs {
		place := "display: block"
		if sideBySide {
			place = fmt.Sprintf("position: absolute; top: 0; left: %dpx", x)
			x += f.w
		}
		fmt.Fprintf(&b, `<iframe src="%s" onload="measure(this, '%s')" style="border: 0; %s; width: %dpx; height: %dpx"></iframe>`+"\n", f.page, f.id, place, f.w, f.h)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// brokenWordsJS finds the words of a page that are broken across lines although each would
// fit whole on a line of the page: for every word of every text node, the boxes of its
// letters lie on more than one line while their widths add up to less than the page's
// width. A word ends at a space, after a bar, comma or semicolon, and after a hyphen or a
// slash that follows a small letter ("set-up", "and/or"), where a line may break as at a
// space; an id is one word ("BAR-/LANT" is broken, as are "li/ne" and "SIR-EGY/1"). It
// returns them URI-encoded, each with the element it is in.
const brokenWordsJS = `function brokenWords(doc) {
var width = doc.body.clientWidth, out = [], walk = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT), n;
function check(node, from, to) {
	var r = doc.createRange();
	r.setStart(node, from);
	r.setEnd(node, to);
	var rects = r.getClientRects(), tops = {}, lines = 0, w = 0;
	for (var i = 0; i < rects.length; i++) {
		w += rects[i].width;
		var t = Math.round(rects[i].top);
		if (!tops[t]) { tops[t] = true; lines++; }
	}
	if (lines > 1 && w < width) {
		out.push(encodeURIComponent(node.parentNode.tagName.toLowerCase() + ":" + node.data.slice(from, to)));
	}
}
while ((n = walk.nextNode())) {
	var re = /\S+/g, m;
	while ((m = re.exec(n.data))) {
		var from = m.index, end = m.index + m[0].length;
		for (var i = from; i < end; i++) {
			var c = n.data[i], small = i > 0 && /[a-z]/.test(n.data[i - 1]);
			if (i == end - 1 || "|,;".indexOf(c) >= 0 || ("-/".indexOf(c) >= 0 && small)) {
				check(n, from, i + 1);
				from = i + 1;
			}
		}
	}
}
return out.join(" ");
}`

// widthsRE reads the measures of the frame labelled id.
func widthsRE(id string) *regexp.Regexp {
	return regexp.MustCompile(`widths ` + regexp.QuoteMeta(id) + ` (\d+) (\d+) broken (.*?) end`)
}

// checkPoint is a signed checkpoint block as long as a real one.
var checkPoint = "-----BEGIN NAVARCH CHECKPOINT-----\ngame c646ef0e5a1b2c3d4e5f60718293a4b5\nsize 214\nhead " +
	strings.Repeat("4a9bc910", 8) + "\nsignature " + strings.Repeat("5be1c2d3e4f5a6b7", 8) + "\n-----END NAVARCH CHECKPOINT-----\n"

// browserPages are the mails TestMailsInBrowser looks at: every kind, with its content as
// long as a real game's (a checkpoint as long as a real one, refused orders with what is
// legal, a welcome with a ruleset's order help), HELP's answer, and the welcome of a player
// who takes over a side in play.
func browserPages(t *testing.T) map[string]Mail {
	s := samples()
	out := map[string]Mail{}
	for _, kind := range Kinds {
		m := s[kind]
		m.Checkpoint = checkPoint
		switch b := m.Body.(type) {
		case Report:
			b.TurnEnd.Checkpoint = checkPoint
			m.Body = b
		case TurnEnd:
			b.Checkpoint = checkPoint
			m.Body = b
		case GameEnd:
			b.Checkpoint = checkPoint
			m.Body = b
		case RefereeWelcome:
			b.Checkpoint = checkPoint
			m.Body = b
		case Welcome: // the order help, with lines as long as a ruleset's
			b.Help = lepantoHelp(t)
			b.Checkpoint = checkPoint
			m.Body = b
		case Errors: // refused orders as a player writes them
			b.Lines = []ErrorLine{
				{Line: 1, Text: "BAR-LANT MOVE 0813", Reason: "0813 is not adjacent to 0611: MOVE takes one hex at a time",
					Legal: "PASS; MOVE to 0310 0313 0410 0411 0412 0413 0414 0509 0510 0511 0512 0513 0514 0515 0609 " +
						"0610 0612 0613 0614 0615 0709 0710 0711 0712 0713 0714 0810 0811 0812 0813 0814 0914; FIRE at SIR-EGY1; TURN NE, NW, SE"},
				{Line: 12, Text: "BAR-VEN1 MOVE 0606 <script>", Reason: "not understood: \"<SCRIPT>\" is not a hex"},
			}
			m.Body = b
		}
		out[kind] = m
	}
	help := s["notice"]
	help.Body = Notice{Lines: append(strings.Split(strings.TrimRight(lepantoHelp(t), "\n"), "\n"), MailCommands...)}
	out["help"] = help
	takeover := out["welcome"] // REPLACE: carol takes over bob's side in play, her orders due
	w := takeover.Body.(Welcome)
	req := s["request"].Body.(Request)
	w.TakeOver = &TakeOver{From: "bob", What: req.What, Sides: req.Waiting, Received: true, Request: &req, Summary: lepantoSummary("if the game ended now")}
	takeover.Player, takeover.Body = "Carol", w
	out["takeover"] = takeover
	return out
}

// lepantoHelp is Lepanto's order help for the Christian side of its first scenario.
func lepantoHelp(t *testing.T) string {
	t.Helper()
	g, err := lepanto.Ruleset.New(adjudicator.Config{Scenario: lepanto.Ruleset.Scenarios()[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	return g.Help("christian")
}

// TestMailsInBrowser: the HTML part of every kind of mail, and HELP's answer, in headless
// Chromium at phone (390 px, in a frame) and desktop (1280 px) width, never runs off the
// screen and breaks no word inside that would fit on a line ("li/n/e 1", "BAR-/LAN/T");
// the phone screenshots are kept in testdata/KIND.phone.png (go test -update rewrites them;
// look at them after a change to the HTML). Chromium runs twice, not three times a mail
// (its start is most of the time): once on a page with every mail in a frame of each width,
// each frame measured on its own (a frame's width is its viewport's), and once for a
// screenshot of every mail's phone frame side by side, cut into one a mail.
func TestMailsInBrowser(t *testing.T) {
	bin := chromium(t)
	mapPNG, err := os.ReadFile("../docs/example/map.png")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pages := browserPages(t)
	var kinds []string
	for _, kind := range slices.Sorted(maps.Keys(pages)) {
		if err := writeMailPage(dir, kind, pages[kind], mapPNG); err != nil {
			t.Errorf("%s: %v", kind, err)
			continue
		}
		kinds = append(kinds, kind)
	}
	var checks []frameSpec
	for _, kind := range kinds {
		for _, w := range []int{phoneWidth, 1280} {
			checks = append(checks, frameSpec{kind + ".html", fmt.Sprintf("%s-%d", kind, w), w, 900})
		}
	}
	dom := browse(t, bin, writeHarness(t, dir, "checks.html", checks, false), 1280, 1000, "--dump-dom")
	shots := make([]frameSpec, len(kinds))
	for i, kind := range kinds {
		shots[i] = frameSpec{kind + ".html", kind + "-shot", phoneWidth, shotHeight}
	}
	shot := filepath.Join(dir, "phones.png")
	browse(t, bin, writeHarness(t, dir, "shots.html", shots, true), len(kinds)*phoneWidth, shotHeight, "--screenshot="+shot)
	for i, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			for _, w := range []int{phoneWidth, 1280} {
				checkPage(t, dom, kind, w)
			}
			one := filepath.Join(dir, kind+".png")
			crop(t, shot, one, i*phoneWidth, phoneWidth)
			goldenPNG(t, kind+".phone.png", one)
		})
	}
}

// writeMailPage writes the HTML part of mail m, of its kind, as DIR/KIND.html, with the map it
// attaches beside it.
func writeMailPage(dir, kind string, m Mail, mapPNG []byte) error {
	tmpl := map[string]string{"help": "notice", "takeover": "welcome"}[kind]
	if tmpl == "" {
		tmpl = kind
	}
	p, err := Render(tmpl, m)
	if err != nil {
		return err
	}
	html := p.HTML
	attached := ""
	switch b := m.Body.(type) {
	case Report:
		attached = b.Map
	case Request:
		attached = b.Map
	case GameEnd:
		attached = b.Map
	case Welcome:
		if b.TakeOver != nil && b.TakeOver.Request != nil {
			attached = b.TakeOver.Request.Map
		}
	}
	if attached != "" {
		if err := os.WriteFile(filepath.Join(dir, attached), mapPNG, 0o644); err != nil {
			return err
		}
		html = strings.ReplaceAll(html, "cid:"+attached, attached)
	}
	return os.WriteFile(filepath.Join(dir, kind+".html"), []byte(html), 0o644)
}

// writeHarness writes DIR/NAME, the frames page of specs, and returns its path.
func writeHarness(t *testing.T, dir, name string, specs []frameSpec, sideBySide bool) string {
	t.Helper()
	harness := filepath.Join(dir, name)
	if err := os.WriteFile(harness, []byte(frames(specs, sideBySide)), 0o644); err != nil {
		t.Fatal(err)
	}
	return harness
}

// checkPage reads from dom what the frame of kind w px wide measured, and fails if anything
// runs off the screen or a word is broken inside.
func checkPage(t *testing.T, dom, kind string, w int) {
	t.Helper()
	got := widthsRE(fmt.Sprintf("%s-%d", kind, w)).FindStringSubmatch(dom)
	if got == nil {
		t.Fatalf("%s at %d px: the page script wrote nothing:\n%s", kind, w, dom)
	}
	scroll, _ := strconv.Atoi(got[1])
	inner, _ := strconv.Atoi(got[2])
	if inner != w || scroll > inner {
		t.Errorf("%s at %d px: the mail is %d px wide in a %d px frame: something runs off the screen", kind, w, scroll, inner)
	}
	var broken []string
	for _, b := range strings.Fields(got[3]) {
		word, err := url.PathUnescape(b)
		if err != nil {
			t.Fatalf("%s at %d px: %v", kind, w, err)
		}
		broken = append(broken, strconv.Quote(word))
	}
	if len(broken) > 0 {
		t.Errorf("%s at %d px: %d words broken inside (element:word): %s", kind, w, len(broken), strings.Join(broken, " "))
	}
}

// phoneWidth is a phone's width in CSS pixels (an iPhone 12 to 15); shotHeight is the
// height of the phone screenshots.
const (
	phoneWidth = 390
	shotHeight = 2000
)

// crop cuts the w pixels wide stretch from x of screenshot file (a frame) into out.
func crop(t *testing.T, file, out string, x, w int) {
	t.Helper()
	f, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	sub := img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(b.Min.X+x, b.Min.Y, b.Min.X+x+w, b.Max.Y))
	var buf bytes.Buffer
	if err := png.Encode(&buf, sub); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goldenPNG keeps a screenshot as testdata/NAME (-update). Fonts differ from machine to
// machine, so the check is that the kept screenshot is a PNG of the same size, not that
// every pixel agrees; the file is there to be looked at.
func goldenPNG(t *testing.T, name, shot string) {
	t.Helper()
	got, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	g, err1 := png.DecodeConfig(bytes.NewReader(got))
	w, err2 := png.DecodeConfig(bytes.NewReader(want))
	if err1 != nil || err2 != nil || g.Width != w.Width || g.Height != w.Height {
		t.Errorf("%s: screenshot %dx%d (%v), kept %dx%d (%v)", name, g.Width, g.Height, err1, w.Width, w.Height, err2)
	}
}
