package mail

import "testing"

func TestDKIMAligned(t *testing.T) {
	const us = "mx.navarch.example"
	cases := []struct {
		name, from string
		ar         []string
		want       bool
	}{
		{"pass, same domain", "alice@example.org", []string{us + "; dkim=pass header.d=example.org header.s=s1"}, true},
		{"pass, parent domain", "alice@mail.example.org", []string{us + "; dkim=pass header.d=example.org"}, true},
		{"pass, other domain", "alice@example.org", []string{us + "; dkim=pass header.d=evil.example"}, false},
		{"pass, lookalike suffix", "alice@notexample.org", []string{us + "; dkim=pass header.d=example.org"}, false},
		{"fail", "alice@example.org", []string{us + "; dkim=fail header.d=example.org"}, false},
		{"someone else's server", "alice@example.org", []string{"mx.other.example; dkim=pass header.d=example.org"}, false},
		{"a forged field below ours", "alice@example.org", []string{us + "; dkim=none", us + "; dkim=pass header.d=example.org"}, false},
		{"several results", "alice@example.org", []string{us + "; spf=pass smtp.mailfrom=example.org; dkim=fail header.d=x.example; dkim=pass header.d=example.org"}, true},
		{"garbage", "alice@example.org", []string{";;;=", us}, false},
		{"no field", "alice@example.org", nil, false},
		{"no from", "", []string{us + "; dkim=pass header.d=example.org"}, false},
	}
	for _, c := range cases {
		if got := DKIMAligned(&Incoming{From: c.from, AuthResults: c.ar}, us); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzDKIMAligned(f *testing.F) {
	f.Add("alice@example.org", "mx.navarch.example; dkim=pass header.d=example.org")
	f.Add("a@b", "mx; dkim=pass (good) header.d=\"b\"")
	f.Fuzz(func(t *testing.T, from, ar string) {
		DKIMAligned(&Incoming{From: from, AuthResults: []string{ar}}, "mx.navarch.example")
	})
}
