package mail

import "strings"

// clearSigned returns the signed text of an inline PGP clear-signed body (RFC 4880 7): the
// armour headers and the signature removed and the dash-escaping undone. A body without
// the armour is returned as it is.
func clearSigned(s string) string {
	lines := strings.Split(s, "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "-----BEGIN PGP SIGNED MESSAGE-----" {
			start = i
			break
		}
	}
	if start < 0 {
		return s
	}
	i := start + 1
	for i < len(lines) && strings.TrimSpace(lines[i]) != "" { // Hash: headers
		i++
	}
	var out []string
	for i++; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "-----BEGIN PGP SIGNATURE-----" {
			break
		}
		out = append(out, strings.TrimPrefix(l, "- "))
	}
	return strings.Join(out, "\n")
}
