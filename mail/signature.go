package mail

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Signatures: the "-- " separator (RFC 3676 4.3) and its common misspellings, the lines
// phones and mail apps add by themselves ("Sent from my iPhone" in its languages, "Get
// Outlook for Android" …), and the sign-off block a player writes under his orders
// ("Thanks, / Alice").

var (
	// dashSigRE: "-- ", "--", an em or en dash alone or before a name, a rule of dashes,
	// underscores or equals signs.
	dashSigRE = regexp.MustCompile(`^((--|—|–|―)( ?[\p{L}][\p{L} .'-]{0,40})?|-{3,}|_{3,}|={3,}|\*{3,})$`)
	// appSigRE: what phones and mail apps append, in the major languages.
	appSigRE = regexp.MustCompile(`(?i)^(` +
		`(sent|envoyé|envoye|enviado|enviada|enviat|inviato|inviata|verzonden|verstuurd|gesendet|wysłane|wyslane|wysłano|skickat|sendt|lähetetty|odesláno|odeslano|отправлено|надіслано|küldve|gönderildi|στάλθηκε|απεστάλη|được gửi|trimis|dikirim|poslano|poslato|saadetud|išsiųsta)\s+(from|with|via|using|by|on|de|depuis|desde|des de|des del|do|dos|dal|da|dalla|vanaf|met|von|mit|z|ze|från|med|fra|из|с|со|з|από|từ|de pe|dari|s|sa|iz|seadmest|iš)(\s.*)?` +
		`|lähetetty \S+(sta|stä)` +
		`|(von|vom) mein\S* .*gesendet\.?` +
		`|gesendet (von|mit) .*` +
		`|get outlook for .*|(download|obtenir|obtener|obter|scarica|baixe|holen sie sich|pobierz|скачать|получить|outlook) (outlook )?(für|for|pour|para|per|dla|для) (ios|android).*` +
		`|.*(から送信|에서 보냄|küldve|gönderildi)\.?` +
		`|(发自|來自|从|從)我的.*|sent from my .*|` +
		`get the .* app|sent from a phone.*` +
		`)$`)
)

// signatureStart reports whether a line starts a signature: a separator, or a line a phone
// or mail app adds.
func signatureStart(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || utf8.RuneCountInString(t) > 120 {
		return false
	}
	first, _ := utf8.DecodeRuneInString(t)
	return strings.ContainsRune("-—–―_=*", first) && dashSigRE.MatchString(t) || appSigRE.MatchString(t) && !strings.Contains(t, ", ")
}

// signOffs are the words players close a mail with, in the major languages.
var signOffs = []string{"thanks", "thank you", "thx", "ty", "cheers", "regards", "best", "best regards", "kind regards",
	"warm regards", "all the best", "bye", "ciao", "see you", "greetings", "br", "yours", "sincerely", "good luck", "gl hf",
	"danke", "vielen dank", "gruß", "grüße", "viele grüße", "liebe grüße", "beste grüße", "lg", "vg", "mfg",
	"mit freundlichen grüßen", "merci", "merci beaucoup", "cordialement", "bien à vous", "amitiés", "bises", "salutations",
	"saludos", "gracias", "un saludo", "muchas gracias", "atentamente", "grazie", "saluti", "cordiali saluti", "a presto",
	"groeten", "met vriendelijke groet", "bedankt", "dank je", "obrigado", "obrigada", "abraços", "abraço", "atenciosamente",
	"cumprimentos", "спасибо", "с уважением", "всего доброго", "пока", "дякую", "з повагою", "pozdrawiam", "dzięki",
	"dziękuję", "pozdrowienia", "s pozdravem", "díky", "děkuji", "terveisin", "kiitos", "hilsen", "mvh", "med vennlig hilsen",
	"vennlig hilsen", "tack", "hälsningar", "med vänliga hälsningar", "venlig hilsen", "med venlig hilsen", "tak", "üdv",
	"köszönöm", "üdvözlettel", "saygılarımla", "teşekkürler", "saygılar", "よろしくお願いします", "よろしく", "ありがとう",
	"ありがとうございます", "谢谢", "謝謝", "감사합니다", "고맙습니다", "cảm ơn", "ευχαριστώ", "mulțumesc", "multumesc", "gràcies",
	"terima kasih", "salam", "pozdrav", "hvala", "lp"}

// signOff reports whether a line opens a sign-off block: a closing word, alone or
// leading a short sentence ("Thanks for the game!").
func signOff(line string) bool {
	t := strings.ToLower(strings.TrimRightFunc(strings.TrimSpace(line), func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSpace(r) || r == '~'
	}))
	if t == "" || len(strings.Fields(t)) > 8 || orderLike(t) {
		return false
	}
	for _, w := range signOffs {
		if t == w || strings.HasPrefix(t, w+" ") || strings.HasPrefix(t, w+",") {
			return true
		}
	}
	return false
}

// orderLike reports whether a line looks like an order or a request line rather than
// prose or a name: a digit, or an upper-case word joined by a hyphen (a unit id).
func orderLike(t string) bool {
	if strings.ContainsFunc(t, unicode.IsDigit) {
		return true
	}
	for _, w := range strings.Fields(t) {
		if strings.Contains(w, "-") && strings.ToUpper(w) == w && strings.ContainsFunc(w, unicode.IsLetter) {
			return true
		}
	}
	return false
}

// nameLike reports whether a line could be a name or a short sign-off line under a
// sign-off: a few words, no digits, no unit ids, not starting with a word in capitals
// (as orders are written: "LION SAIL PORT").
func nameLike(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || len(strings.Fields(t)) > 5 || utf8.RuneCountInString(t) > 50 || orderLike(t) || strings.Contains(t, "#") {
		return false
	}
	first := strings.Fields(t)[0]
	return !(utf8.RuneCountInString(first) >= 2 && strings.ToUpper(first) == first && strings.ToLower(first) != first)
}

// dashName reports whether a line is a name signed with a dash ("-Alice").
func dashName(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "-") && len(t) > 1 && unicode.IsLetter([]rune(t)[1]) && nameLike(t)
}

// senderName reports whether a line is the sender's name, or a part of it, as he signs.
func senderName(line, name, address string) bool {
	t := strings.ToLower(strings.Trim(strings.TrimSpace(line), ".,;!-—– "))
	if t == "" || orderLike(t) {
		return false
	}
	name = strings.ToLower(name)
	local, _, _ := strings.Cut(strings.ToLower(address), "@")
	if t == name || t == local {
		return true
	}
	for _, w := range strings.Fields(name) {
		if t == strings.Trim(w, `"'.,`) {
			return true
		}
	}
	return false
}

// greetings are the words players open a mail with, in the major languages.
var greetings = []string{"hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening", "greetings", "hi there",
	"hallo", "moin", "servus", "guten tag", "guten morgen", "liebe", "lieber", "bonjour", "salut", "coucou", "cher", "chère",
	"hola", "buenos días", "buenas", "ciao", "salve", "buongiorno", "caro", "cara", "hoi", "beste", "goedemorgen", "olá", "oi",
	"bom dia", "prezado", "prezada", "привет", "здравствуйте", "добрый день", "вітаю", "cześć", "dzień dobry", "witam", "ahoj",
	"dobrý den", "hei", "moi", "hej", "hallå", "szia", "jó napot", "merhaba", "selam", "こんにちは", "お疲れ様です", "你好", "您好",
	"안녕하세요", "xin chào", "chào", "γεια σας", "γεια", "bună", "bună ziua", "halo", "bok", "hola a todos"}

// greeting reports whether a line is a salutation ("Hi navarch,", "Bonjour"): a greeting
// word, alone or before a few words of a name.
func greeting(line string) bool {
	t := strings.ToLower(strings.TrimRightFunc(strings.TrimSpace(line), func(r rune) bool {
		return unicode.IsPunct(r) || unicode.IsSpace(r)
	}))
	if t == "" || len(strings.Fields(t)) > 4 || orderLike(t) {
		return false
	}
	for _, w := range greetings {
		if t == w || strings.HasPrefix(t, w+" ") || strings.HasPrefix(t, w+",") {
			return true
		}
	}
	return false
}

// intro reports whether a line introduces the lines under it ("Here are my orders:"): prose
// ending in a colon, which no order line is.
func intro(line string) bool {
	t := strings.TrimSpace(line)
	return (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && len(strings.Fields(t)) <= 10 &&
		nameLike(strings.Join(strings.Fields(t)[:min(5, len(strings.Fields(t)))], " ")) && !orderLike(t) && headerField(t) == ""
}
