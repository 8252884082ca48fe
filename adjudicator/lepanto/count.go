package lepanto

import "fmt"

// count is n with its noun, singular or plural: "1 leader", "2 leaders", "no captains".
func count(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
