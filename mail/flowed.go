package mail

import "strings"

// unflow decodes a format=flowed body (RFC 3676): a line ending in a space flows into the
// next line of the same quote depth; with DelSp=yes that space is deleted (4.1, 4.2). Space
// stuffing is undone (4.4) and quoted lines keep one "> " prefix per depth. The signature
// separator "-- " never flows (4.3).
func unflow(s string, delSp bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out []string
	var cur strings.Builder
	curDepth, open := 0, false
	flush := func() {
		if open {
			out = append(out, quotePrefix(curDepth)+cur.String())
			cur.Reset()
			open = false
		}
	}
	for _, line := range strings.Split(s, "\n") {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		body := line[depth:]
		body = strings.TrimPrefix(body, " ") // stuffing (4.4), or the space after the quote marks
		if open && depth != curDepth {
			flush()
		}
		flowed := strings.HasSuffix(body, " ") && body != "-- "
		if flowed && delSp {
			body = body[:len(body)-1]
		}
		cur.WriteString(body)
		curDepth, open = depth, true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}

func quotePrefix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strings.Repeat(">", depth) + " "
}
