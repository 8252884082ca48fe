package mail

import (
	"bytes"
	"strings"
)

// padBase64 returns raw with the missing "=" padding added at the end of each base64 body
// (some clients and gateways leave it off; RFC 2045 6.8 requires it, Go's decoder insists on
// it). A part is base64 when its header says so; its body ends at a boundary line or at
// the end of the message.
func padBase64(raw []byte) []byte {
	lines := bytes.SplitAfter(raw, []byte("\n"))
	var out [][]byte
	inHeader, isB64, inBody := true, false, false
	count, last := 0, -1
	finish := func() {
		if inBody && isB64 && count%4 != 0 && last >= 0 {
			l := out[last]
			trimmed := bytes.TrimRight(l, "\r\n")
			pad := bytes.Repeat([]byte("="), 4-count%4)
			out[last] = append(append(append([]byte{}, trimmed...), pad...), l[len(trimmed):]...)
		}
		count, last = 0, -1
	}
	for _, l := range lines {
		t := strings.TrimSpace(string(l))
		switch {
		case strings.HasPrefix(t, "--") && !inHeader:
			finish()
			inHeader, isB64, inBody = true, false, false
		case inHeader && t == "":
			inHeader, inBody = false, true
		case inHeader:
			lt := strings.ToLower(t)
			if strings.HasPrefix(lt, "content-transfer-encoding:") {
				isB64 = strings.Contains(lt, "base64")
			}
		case inBody && isB64 && t != "":
			count += len(strings.TrimRight(t, "="))
			if strings.HasSuffix(t, "=") {
				count = 0 // padded already
			}
			last = len(out)
		}
		out = append(out, l)
	}
	finish()
	return bytes.Join(out, nil)
}
