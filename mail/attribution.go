package mail

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lines a mail client writes above the text it quotes: attribution lines ("On … wrote:")
// in the languages of the common clients, Outlook's header blocks, and the separators of
// original and forwarded messages.

// wroteWords are the verbs of attribution lines ("wrote", "schrieb", "a écrit" …) as Gmail,
// Apple Mail, Outlook, Thunderbird, mutt and the webmailers write them in some thirty
// languages.
var wroteWords = []string{"wrote", "writes", "schrieb", "schreibt", "écrit", "escribió", "escribio", "ha escrito", "va escriure", "ha escrit", "scritto", "scrisse", "schreef", "geschreven", "escreveu", "написал", "написала", "пишет", "пише", "написав", "napisał", "napisala", "napisała", "pisze", "napsal", "napísal", "kirjoitti", "skrev", "írta", "yazdı", "写道", "寫道", "작성", "쓴 글", "のメール", "đã viết", "έγραψε", "a scris", "menulis", "napisao", "napisala", "rašė", "rakstīja", "kirjutas", "skrifaði", "כתב", "كتب", "quoting", "zitat von"}

// wrote reports whether t holds one of wroteWords, starting a word.
func wrote(t string) bool {
	lower := strings.ToLower(t)
	for _, w := range wroteWords {
		for from := 0; ; {
			k := strings.Index(lower[from:], w)
			if k < 0 {
				break
			}
			k += from
			if r, _ := utf8.DecodeLastRuneInString(lower[:k]); k == 0 || !unicode.IsLetter(r) || unspaced(w) {
				return true
			}
			from = k + len(w)
		}
	}
	return false
}

// unspaced reports whether a word is of a script written without spaces between words
// (Chinese, Japanese, Korean's particles): it needs no word boundary before it.
func unspaced(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana)
}

// attrStartRE is how an attribution of a known client starts, for the first of the lines a
// client wrapped it over.
var attrStartRE = regexp.MustCompile(`(?i)^((on|am|le|el|il|in data|il giorno|op|em|den|dne|w dniu|pada|vào|στις|în|pe|quoting|zitat von)\s|\*|\d|\p{Han}|\p{Hangul}|\p{Katakana}|\p{Hiragana}|[\p{L}.]+, \d)`)

// hintRE is what an attribution carries besides its verb: an address, a time of day or a
// date.
var hintRE = regexp.MustCompile(`@|\d{1,2}[:.]\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\b(19|20)\d{2}\b|\d+年`)

// attribution reports whether the joined lines t are an attribution line: ending in a
// colon, with an attribution verb (strong) or at least an address, a time or a date (weak,
// which counts only right above a quote).
func attribution(t string) (strong, weak bool) {
	t = strings.TrimSpace(t)
	if utf8.RuneCountInString(t) > 300 || !(strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) {
		return false, false
	}
	if strings.Count(t, ":") > 6 || headerField(t) != "" {
		return false, false
	}
	if wrote(t) {
		return true, true
	}
	return false, hintRE.MatchString(t)
}

// attributionAt reports how many lines, from lines[i], an attribution spans (clients wrap
// it over up to three), whether it is strong, and whether its first line starts as the
// clients' attributions do or carries an address, a time or a date (hinted); n is 0 if
// there is none. An attribution over several lines must be hinted.
func attributionAt(lines []string, i int) (n int, strong, hinted bool) {
	first := strings.TrimSpace(unmarked(lines[i]))
	if first == "" || strings.HasPrefix(first, ">") {
		return 0, false, false
	}
	if !colonWithin(lines, i, 3) {
		return 0, false, false
	}
	hinted = attrStartRE.MatchString(first) || hintRE.MatchString(first)
	joined := ""
	for k := 0; k < 3 && i+k < len(lines); k++ {
		t := strings.TrimSpace(unmarked(lines[i+k]))
		if t == "" || strings.HasPrefix(t, ">") {
			break
		}
		if joined != "" && !strings.HasSuffix(joined, "<") && !strings.HasSuffix(t, ">") {
			joined += " "
		}
		joined += t
		if s, w := attribution(joined); (s || w) && (k == 0 || hinted) {
			return k + 1, s, hinted
		}
	}
	return 0, false, false
}

// unmarked is a line without the bidirectional marks right-to-left clients put around the
// names and addresses of an attribution (Gmail in Hebrew, Arabic, Persian).
func unmarked(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\u200E' || r == '\u200F' || r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069' {
			return -1
		}
		return r
	}, s)
}

// colonWithin reports whether one of the n lines from lines[i] ends with a colon, as an
// attribution does (a cheap look before the regular expressions).
func colonWithin(lines []string, i, n int) bool {
	for k := i; k < len(lines) && k < i+n; k++ {
		t := strings.TrimSpace(unmarked(lines[k]))
		if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：") {
			return true
		}
	}
	return false
}

// The names of the header fields Outlook, Apple Mail, Thunderbird and the webmailers put
// above a quoted or forwarded message, in their languages; fromFields are those naming
// the sender.
var (
	fromFields = []string{"from", "von", "de", "van", "da", "od", "fra", "från", "от", "від", "lähettäjä", "feladó", "kimden",
		"差出人", "发件人", "寄件者", "寄件人", "보낸 사람", "từ", "από", "de la", "dari", "šalje", "expéditeur", "absender", "mittente",
		"afzender", "nadawca", "remitente", "odesílatel", "avsändare", "отправитель", "frá", "nuo", "no", "saatja"}
	otherFields = []string{"sent", "date", "to", "subject", "cc", "bcc", "reply-to", "gesendet", "datum", "an", "betreff", "envoyé",
		"à", "objet", "enviado", "enviado el", "fecha", "para", "asunto", "inviato", "data", "a", "oggetto", "verzonden", "aan",
		"onderwerp", "wysłano", "do", "temat", "odesláno", "komu", "předmět", "sendt", "til", "emne", "skickat", "till", "ämne",
		"отправлено", "дата", "кому", "тема", "копия", "надіслано", "lähetetty", "vastaanottaja", "aihe", "elküldve", "címzett",
		"tárgy", "gönderildi", "tarih", "kime", "konu", "送信日時", "宛先", "件名", "日付", "发送时间", "发送日期", "收件人", "主题", "抄送",
		"时间", "寄件日期", "收件者", "主旨", "副本", "보낸 날짜", "받는 사람", "제목", "참조", "đã gửi", "đến", "chủ đề", "ngày",
		"στάλθηκε", "προς", "θέμα", "ημερομηνία", "trimis", "către", "subiect", "enviat el", "per a", "assumpte", "dikirim", "kepada",
		"subjek", "tanggal", "poslano", "prima", "predmet", "kopie", "copie", "cci", "kp", "dw"}
	fieldRE = regexp.MustCompile(`^\*?([\p{L}][\p{L} .-]{0,20}?)\s*\*?\s*[:：]`)
)

// headerField returns the field a line of a header block starts with ("from", "sent" …), or "".
func headerField(t string) string {
	if !strings.ContainsAny(t, ":：") {
		return ""
	}
	m := fieldRE.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return ""
	}
	name := strings.ToLower(strings.TrimSpace(m[1]))
	for _, f := range fromFields {
		if name == f {
			return "from"
		}
	}
	for _, f := range otherFields {
		if name == f {
			return name
		}
	}
	return ""
}

// headerBlockAt reports whether lines[i] starts a header block above a quoted or forwarded
// message: at least two header lines in a row, one of them naming the sender.
func headerBlockAt(lines []string, i int) bool {
	fields, from := 0, false
	for k := i; k < len(lines) && k < i+6; k++ {
		f := headerField(lines[k])
		if f == "" {
			break
		}
		fields++
		from = from || f == "from"
	}
	return fields >= 2 && from
}

var (
	// separatorRE: "-----Original Message-----", "-------- Forwarded Message --------",
	// "------------------ 原始邮件 ------------------" and their kind in any language, and
	// Outlook's line of underscores; navarch's own BEGIN/END blocks are not separators.
	separatorRE = regexp.MustCompile(`^(-{5,}\s*(\S.{0,60}?\S|\S)\s*-{5,}|_{10,})$`)
	// forwardRE: "Begin forwarded message:" and its kind.
	forwardRE = regexp.MustCompile(`(?i)^.{0,40}(forwarded|weitergeleitet|réexpédié|transféré|reenviado|inoltrato|doorgestuurd|encaminhada|reencaminhada|переадресованного|пересылаемое|przekazana|přeposlaná|vidarebefordrat|videresendt|välitetty|továbbított|yönlendirilmiş|転送|转发|轉寄|전달된).{0,40}[:：]$`)
)

// separator reports whether a line starts a quoted original or forwarded message.
func separator(t string) bool {
	if t == "" || t[0] != '-' && t[0] != '_' && !strings.HasSuffix(t, ":") && !strings.HasSuffix(t, "：") {
		return false
	}
	if separatorRE.MatchString(t) {
		up := strings.ToUpper(t)
		return !strings.Contains(up, "BEGIN") && !strings.Contains(up, "END ") && !strings.Contains(up, "-END")
	}
	return forwardRE.MatchString(t)
}
