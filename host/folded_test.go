package host

import (
	"strings"
	"testing"
)

// TestLookalikeLettersSaid: an order line typed with a Cyrillic letter that looks Latin is
// read as the Latin letter (mail.Request.Folded), and the answer says which line was so
// read; a mail without such letters says nothing of it.
func TestLookalikeLettersSaid(t *testing.T) {
	f, keys, asked, _, _, _ := afterSetUp(t)
	f.outbox()
	side := "christian"
	if asked != "alice@example.org" {
		side = "ottoman"
	}
	orders := f.botOrders(side)
	first, rest, _ := strings.Cut(orders, "\n")
	i := strings.IndexAny(first, "AEOPCTHKMBX")
	if i < 0 {
		t.Fatalf("no letter to type in Cyrillic in %q", first)
	}
	cyr := map[byte]string{'A': "А", 'E': "Е", 'O': "О", 'P': "Р", 'C': "С", 'T': "Т", 'H': "Н", 'K': "К", 'M': "М", 'B': "В", 'X': "Х"}[first[i]]
	typed := first[:i] + cyr + first[i+1:] + "\n" + rest
	f.handle("KEY "+keys[asked]+"\nCHECK\n"+typed, "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <cyr1@mail.example>")
	r := find(f.outbox(), asked, "orders checked")
	if r == nil {
		t.Fatal("the orders typed with a Cyrillic letter were not read")
	}
	if text := flat(r.Text); !strings.Contains(text, "Your line 3 had letters that only look Latin") {
		t.Errorf("the receipt does not say that line 3 was read with Latin letters:\n%s", r.Text)
	}
	f.handle("KEY "+keys[asked]+"\nCHECK\n"+orders, "From: "+asked, "Subject: Re: [navarch "+f.tag+"] orders due", "Message-ID: <cyr2@mail.example>")
	if r := find(f.outbox(), asked, "orders checked"); r == nil || strings.Contains(r.Text, "only look Latin") {
		t.Errorf("orders in Latin letters: %v", r)
	}
}
