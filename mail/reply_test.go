package mail

import "testing"

// TestReadReplyDropsQuotes: each kind of quote, attribution, separator and signature goes;
// the player's lines above and below it stay.
func TestReadReplyDropsQuotes(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"marked anywhere", "> q\nA PASS\n>> deeper\nB PASS", "A PASS\n\nB PASS"},
		{"attribution wrapped over three lines", "A PASS\n\nOn Mon, Nov 30, 2026 at 9:00 AM\nnavarch <navarch@host.example>\nwrote:\n\n> game c646ef0e", "A PASS"},
		{"Dutch", "A PASS\nOp ma 30 nov 2026 om 09:00 schreef navarch <navarch@host.example>:\n> B PASS", "A PASS"},
		{"Russian, no verb, above a quote", "A PASS\n\nпн, 30 нояб. 2026 г. в 09:00, navarch <navarch@host.example>:\n> B PASS", "A PASS"},
		{"Japanese", "A PASS\n\n2026年11月30日(月) 9:00 navarch <navarch@host.example>:\n\n> B PASS", "A PASS"},
		{"Italian In data", "A PASS\nIn data lunedì 30 novembre 2026 09:00:00 CET, navarch ha scritto:\n> B PASS", "A PASS"},
		{"s-nail's tab-indented quote, orders under it", "navarch <navarch@host.example> wrote:\n\n\tDear alice\n\t\n\tgame c646ef0e\nA PASS", "A PASS"},
		{"bottom-posted under an attribution", "Le 30 nov. 2026 à 09:00, navarch a écrit :\n> B PASS\n\nA PASS\n-- \nAlice", "A PASS"},
		{"Outlook header block, unmarked quote", "A PASS\n\nVon: navarch <navarch@host.example>\nGesendet: Montag, 30. November 2026 09:00\nAn: Alice\nBetreff: Züge\n\nB PASS\ngame c646ef0e", "A PASS"},
		{"French Outlook", "A PASS\nDe : navarch\nEnvoyé : lundi 30 novembre 2026 09:00\nÀ : Alice\nObjet : ordres\nB PASS", "A PASS"},
		{"original message", "A PASS\n-----Ursprüngliche Nachricht-----\nB PASS", "A PASS"},
		{"forwarded", "A PASS\n\nBegin forwarded message:\n\nB PASS", "A PASS"},
		{"underscores", "A PASS\n________________________________\nB PASS", "A PASS"},
		{"unmarked after a strong attribution", "A PASS\nOn Monday, November 30, 2026, 09:00 AM, navarch <navarch@host.example> wrote:\n   B PASS", "A PASS"},
		{"phone signature", "A PASS\n\nVon meinem iPhone gesendet", "A PASS"},
		{"Outlook app", "A PASS\nGet Outlook for Android<https://aka.ms/ghei36>", "A PASS"},
		{"em dash", "A PASS\n— Alice", "A PASS"},
		{"sign-off and name", "A PASS\n\nViele Grüße\nAlice", "A PASS"},
		{"the sender's name", "JOIN\nAlice", "JOIN"},
		{"greeting and intro", "Hi navarch,\n\nhere are my orders:\nA PASS\n\nCheers,\nAlice", "A PASS"},
		{"German greeting", "Hallo zusammen!\nMeine Befehle für diese Runde:\nA PASS", "A PASS"},
		{"a checkpoint pasted", "A PASS\n-----BEGIN NAVARCH CHECKPOINT-----\ngame c646ef0e\n-----END NAVARCH CHECKPOINT-----", "A PASS"},
	} {
		if got := ReadReply(c.in, "Alice Marino", "alice@example.org"); got != c.want {
			t.Errorf("%s: ReadReply(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// TestReadReplyKeepsText: what only looks like a quote or a signature stays.
func TestReadReplyKeepsText(t *testing.T) {
	for _, in := range []string{
		"A MOVE 0610\nHere is what I want:\nB PASS",          // a colon line over unquoted text is no attribution
		"A PASS\nOn Monday 30 Nov at 09:00:\nB PASS",         // an attribution's form, but nothing is quoted
		"A PASS\nSent from my desk, which is easier\nB PASS", // prose, not an app's line
		"A PASS # -- not a signature",
		"THANKS-1 MOVE 0610", // a unit, not a sign-off
		"A PASS\nThanks\nB-1 PASS",
		"LION SAIL\nThanks\nTHOMAS PORT", // medieval ships' names: orders, not a signature
		"A PASS\n--- my orders ---\nB PASS",
		"HI-1 PASS\nB PASS",   // a unit, not a greeting
		"ORDERS:\nA PASS",     // capitals: left for the rules to refuse, naming the line
		"Here are my orders:", // nothing under it: the mail is answered as it is
	} {
		if got := ReadReply(in, "Alice", "alice@example.org"); got != in {
			t.Errorf("ReadReply(%q) = %q, want it whole", in, got)
		}
	}
}

// TestReadReplyClearSigned: the signed text, its dash-escaping undone, the armour gone.
func TestReadReplyClearSigned(t *testing.T) {
	in := "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nKEY k\nA PASS\n- -- \nAlice\n-----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n"
	if got := ReadReply(in, "", ""); got != "KEY k\nA PASS" {
		t.Errorf("clear-signed: %q", got)
	}
}

// TestReadReplySpaces: every Unicode space a space, BOM and zero-width characters gone,
// control characters kept for the host to show.
func TestReadReplySpaces(t *testing.T) {
	in := "\ufeffKEY\u00a0k\u200b\nA\tPASS\u3000\nB\u2009MOVE\x00"
	if got := ReadReply(in, "", ""); got != "KEY k\nA PASS\nB MOVE\x00" {
		t.Errorf("ReadReply(%q) = %q", in, got)
	}
}

func TestUnflow(t *testing.T) {
	for _, c := range []struct {
		in    string
		delSp bool
		want  string
	}{
		{"BAR-LANT MOVE 0610 \r\n0510\r\nB PASS", false, "BAR-LANT MOVE 0610 0510\nB PASS"},
		{"BAR-LANT MOVE 06 \r\n10\r\n", true, "BAR-LANT MOVE 0610\n"},
		{"> quoted \r\n> more\r\nnew \r\n> other", false, "> quoted more\nnew \n> other"},
		{" From stuffed\r\n-- \r\nsig", false, "From stuffed\n-- \nsig"},
	} {
		if got := unflow(c.in, c.delSp); got != c.want {
			t.Errorf("unflow(%q, %t) = %q, want %q", c.in, c.delSp, got, c.want)
		}
	}
}

func TestFoldLookalikes(t *testing.T) {
	for in, want := range map[string]string{
		"ВАR-VЕN1 МОVЕ 0610": "BAR-VEN1 MOVE 0610",
		"BAR-VEN1 PASS":      "BAR-VEN1 PASS",
		"Спасибо BAR":        "Спасибо BAR", // a Russian word stays Russian
		"ＢＡＲ－ＬＡＮＴ ＰＡＳＳ":      "BAR-LANT PASS",
	} {
		got, changed := foldLookalikes(in)
		if got != want || changed != (in != want) {
			t.Errorf("foldLookalikes(%q) = %q, %t; want %q", in, got, changed, want)
		}
	}
}

// TestSignatureLines: the common app lines in their languages are signatures.
func TestSignatureLines(t *testing.T) {
	for _, s := range []string{"Sent from my iPhone", "Von meinem iPhone gesendet", "Envoyé de mon iPhone", "Enviado desde mi iPhone",
		"Inviato da iPhone", "Verzonden vanaf mijn iPhone", "iPhoneから送信", "发自我的iPhone", "iPhone에서 보냄", "Отправлено с iPhone",
		"Sent from my BlackBerry 10 smartphone.", "Get Outlook for iOS", "Sent from my Samsung Galaxy smartphone.",
		"Sent from Yahoo Mail on Android", "Sent from TypeApp", "-- ", "--", "—", "Wysłane z iPhone'a", "Skickat från min iPhone"} {
		if !signatureStart(s) {
			t.Errorf("%q is not taken as a signature", s)
		}
	}
	for _, s := range []string{"BAR-VEN1 PASS", "Sent: Monday, 30 November", "KEY k7q2", "- BAR-VEN1 PASS"} {
		if signatureStart(s) {
			t.Errorf("%q is taken as a signature", s)
		}
	}
}

// TestAttributionLanguages: the attribution lines of Gmail in thirty languages (the
// corpus has them in whole mails).
func TestAttributionLanguages(t *testing.T) {
	n := 0
	for _, a := range []string{"On Mon, Nov 30, 2026 at 9:00 AM navarch <navarch@host.example> wrote:", "Am Mo., 30. Nov. 2026 um 09:00 Uhr schrieb navarch <n@h.example>:",
		"Le lun. 30 nov. 2026 à 09:00, navarch <n@h.example> a écrit :", "El lun, 30 nov 2026 a las 9:00, navarch (<n@h.example>) escribió:",
		"Il giorno lun 30 nov 2026 alle ore 09:00 navarch <n@h.example> ha scritto:", "Op ma 30 nov 2026 om 09:00 schreef navarch <n@h.example>:",
		"Em seg., 30 de nov. de 2026 às 09:00, navarch <n@h.example> escreveu:", "30 нояб. 2026 г., в 09:00, navarch <n@h.example> написал(а):",
		"pon., 30 lis 2026 o 09:00 navarch <n@h.example> napisał(a):", "ma 30. marrask. 2026 klo 9.00 navarch (n@h.example) kirjoitti:",
		"man. 30. nov. 2026 kl. 09:00 skrev navarch <n@h.example>:", "navarch <n@h.example> ezt írta (időpont: 2026. nov. 30., H, 9:00):",
		"po 30. 11. 2026 v 9:00 odesílatel navarch <n@h.example> napsal:", "navarch <n@h.example>, 30 Kas 2026 Pzt, 09:00 tarihinde şunu yazdı:",
		"navarch <n@h.example> 于2026年11月30日周一 09:00写道：", "在 2026/11/30 9:00, 张三写道:", "2026년 11월 30일 (월) 오전 9:00, navarch <n@h.example>님이 작성:",
		"Vào Th 2, 30 thg 11, 2026 vào lúc 09:00 navarch <n@h.example> đã viết:", "Στις Δευ 30 Νοε 2026 στις 9:00 π.μ., ο/η navarch <n@h.example> έγραψε:",
		"În lun., 30 nov. 2026 la 09:00, navarch <n@h.example> a scris:", "El dl., 30 de nov. 2026 a les 9:00, navarch (<n@h.example>) va escriure:",
		"Pada tanggal Sen, 30 Nov 2026 pukul 09.00 navarch <n@h.example> menulis:", "pon, 30. stu 2026. u 09:00 navarch <n@h.example> napisao je:",
		"пн, 30 лист. 2026 р. о 09:00 navarch <n@h.example> пише:", "navarch <n@h.example> 於 2026年11月30日 週一 上午9:00寫道："} {
		if strong, _ := attribution(a); !strong {
			t.Errorf("%q is not an attribution", a)
		}
		n++
	}
	if n < 20 {
		t.Errorf("%d languages", n)
	}
	if s, w := attribution("BAR-VEN1 MOVE 0610"); s || w {
		t.Error("an order taken as an attribution")
	}
	if headerBlockAt([]string{"From: a", "BAR PASS"}, 0) {
		t.Error("a lone From line taken as a header block")
	}
}
