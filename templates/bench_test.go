package templates

import "testing"

// BenchmarkReport renders one report mail, text and HTML.
func BenchmarkReport(b *testing.B) {
	m := samples()["report"]
	for b.Loop() {
		if _, err := Render("report", m); err != nil {
			b.Fatal(err)
		}
	}
}
