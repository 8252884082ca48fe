package mail

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTMLText returns the text of an HTML mail body as a reader sees it, without the quoted
// history and the signatures the common clients mark in their HTML: every blockquote (Gmail's
// gmail_quote, Apple Mail's and Thunderbird's type=cite), the containers Gmail, Thunderbird
// (moz-cite-prefix), Yahoo (yahoo_quoted), Proton Mail and others put quotes and signatures
// in, and from Outlook's reply header on (divRplyFwdMsg, #appendonsend, a border-top block or
// an <hr> over a header, Hotmail's hr#stopSpelling) everything after it. The document is
// read with an HTML5 parser; elements nested deeper than maxDepth are not read.
func HTMLText(s string) string {
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil { // nested too deep for the parser: read it with the nesting cut
		if doc, err = html.Parse(strings.NewReader(shallow(s))); err != nil {
			return ""
		}
	}
	w := &htmlWriter{}
	w.walk(doc)
	return w.b.String()
}

// shallow re-writes an HTML document with every element nested deeper than maxDepth left
// out, with its content (the parser refuses documents nested beyond its own bound).
func shallow(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	depth := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.StartTagToken:
			name, _ := z.TagName()
			if void[atom.Lookup(name)] {
				if depth <= maxDepth {
					b.Write(z.Raw())
				}
				continue
			}
			depth++
		case html.EndTagToken:
			name, _ := z.TagName()
			if void[atom.Lookup(name)] {
				continue
			}
			depth--
			if depth < maxDepth {
				b.Write(z.Raw())
			}
			depth = max(depth, 0)
			continue
		}
		if depth <= maxDepth {
			b.Write(z.Raw())
		}
	}
}

// void are the elements without an end tag.
var void = map[atom.Atom]bool{atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true, atom.Hr: true,
	atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true, atom.Source: true, atom.Track: true, atom.Wbr: true}

// maxDepth bounds how deep HTMLText reads nested elements (a hostile mail may nest
// thousands).
const maxDepth = 200

type htmlWriter struct {
	b    strings.Builder
	stop bool // the rest of the document is a quoted message
	pre  int  // inside <pre>: white space is kept
}

// walk writes the text of n and its children, in document order, with an explicit stack.
func (w *htmlWriter) walk(root *html.Node) {
	type frame struct {
		n     *html.Node
		after bool // the element's children are written: close it
		depth int
	}
	stack := []frame{{n: root}}
	for len(stack) > 0 && !w.stop {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if f.after {
			w.close(n)
			continue
		}
		switch n.Type {
		case html.TextNode:
			w.text(n.Data)
			continue
		case html.ElementNode:
			if cutsRest(n) {
				w.stop = true
				return
			}
			if skipped(n) || f.depth > maxDepth {
				w.breakLine()
				continue
			}
			w.open(n)
		case html.DocumentNode:
		default:
			continue
		}
		stack = append(stack, frame{n: n, after: true, depth: f.depth})
		var kids []*html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			kids = append(kids, c)
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{n: kids[i], depth: f.depth + 1})
		}
	}
}

func (w *htmlWriter) text(s string) {
	if w.pre > 0 {
		w.b.WriteString(s)
		return
	}
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' }), " ")
	if s == "" {
		return
	}
	if strings.HasPrefix(s, " ") || w.b.Len() == 0 || strings.HasSuffix(w.b.String(), "\n") {
		s = strings.TrimLeft(s, " ")
	}
	w.b.WriteString(s)
}

// breakLine ends the current line, if any (block elements).
func (w *htmlWriter) breakLine() {
	if w.b.Len() > 0 && !strings.HasSuffix(w.b.String(), "\n") {
		w.b.WriteString("\n")
	}
}

func (w *htmlWriter) open(n *html.Node) {
	switch {
	case n.DataAtom == atom.Br:
		w.b.WriteString("\n")
	case n.DataAtom == atom.Pre:
		w.pre++
		w.breakLine()
	case n.DataAtom == atom.Td || n.DataAtom == atom.Th:
		w.b.WriteString(" ")
	case block[n.DataAtom]:
		w.breakLine()
	}
}

func (w *htmlWriter) close(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	if n.DataAtom == atom.Pre {
		w.pre--
	}
	if block[n.DataAtom] || n.DataAtom == atom.Pre {
		w.breakLine()
	}
}

var block = map[atom.Atom]bool{atom.Div: true, atom.P: true, atom.Li: true, atom.Tr: true, atom.Table: true, atom.H1: true,
	atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Blockquote: true, atom.Hr: true,
	atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.Dt: true, atom.Dd: true, atom.Center: true, atom.Form: true, atom.Address: true, atom.Body: true}

// skippedClassRE: the classes and ids of quotes and signatures in the common clients' HTML.
var (
	skippedClassRE = regexp.MustCompile(`(?i)(gmail_quote|gmail_attr|gmail_signature|composer_signature|moz-cite-prefix|moz-signature|yahoo_quoted|protonmail_quote|protonmail_signature_block|zmail_extra|ms-outlook-mobile-signature|olk_src_body_section|wmquote|reply-quote)`)
	skippedWordRE  = regexp.MustCompile(`(?i)^(x_)?(signature|quote|mailsignature)$`)
)

// skipped reports whether an element holds no new text: scripts and styles, quotes and
// signatures.
func skipped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Head, atom.Title, atom.Noscript, atom.Template, atom.Svg, atom.Object, atom.Blockquote, atom.Iframe:
		return true
	}
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "class", "id":
			if skippedClassRE.MatchString(a.Val) {
				return true
			}
			for _, w := range strings.Fields(a.Val) {
				if skippedWordRE.MatchString(w) {
					return true
				}
			}
		case "data-signatureblock", "data-signature-widget", "data-smartmail":
			return true
		case "name":
			if v := strings.ToLower(a.Val); v == "quote" || v == "quoted-content" { // GMX, Web.de
				return true
			}
		case "type":
			if strings.EqualFold(a.Val, "cite") {
				return true
			}
		}
	}
	return false
}

// cutsRest reports whether an element starts the quoted original of an Outlook-style reply,
// after which nothing is new.
func cutsRest(n *html.Node) bool {
	if n.DataAtom == atom.Hr && headerField(textAfter(n, 80)) == "from" {
		return true // a rule over "From: …" (Outlook 2003, Hotmail, Zimbra)
	}
	for _, a := range n.Attr {
		k, v := strings.ToLower(a.Key), strings.ToLower(a.Val)
		switch {
		case k == "id" && (strings.Contains(v, "divrplyfwdmsg") || strings.Contains(v, "appendonsend") || strings.Contains(v, "stopspelling") ||
			v == "zwchr" || strings.Contains(v, "mail-editor-reference-message-container") || strings.HasPrefix(v, "yahoo_quoted") ||
			strings.Contains(v, "isforwardcontent")):
			return true
		case k == "class" && strings.Contains(v, "outlookmessageheader"):
			return true
		case n.DataAtom == atom.Hr && k == "tabindex" && v == "-1":
			return true
		case k == "style" && strings.Contains(v, "border-top") && (n.DataAtom == atom.Div || n.DataAtom == atom.P):
			if headerField(firstText(n, 80)) != "" {
				return true
			}
		}
	}
	return false
}

// textAfter is up to max bytes of the text that follows n in the document.
func textAfter(n *html.Node, max int) string {
	var b strings.Builder
	for c, steps := n, 0; c != nil && b.Len() < max && steps < lookNodes; steps++ {
		for c != nil && c.NextSibling == nil {
			c = c.Parent
		}
		if c == nil {
			break
		}
		c = c.NextSibling
		b.WriteString(" " + firstText(c, max))
	}
	return strings.TrimSpace(b.String())
}

// lookNodes bounds the nodes a look ahead (firstText, textAfter) visits, so that a
// document of many empty elements costs no more than its length.
const lookNodes = 64

// firstText is up to max bytes of an element's text, for a look at what it starts with.
func firstText(n *html.Node, max int) string {
	var b strings.Builder
	stack := []*html.Node{n}
	for seen := 0; len(stack) > 0 && b.Len() < max && seen < lookNodes; seen++ {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			continue
		}
		var kids []*html.Node
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			kids = append(kids, k)
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return spaces(strings.TrimSpace(b.String()))
}
