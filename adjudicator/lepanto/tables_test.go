package lepanto

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultTablesLoad(t *testing.T) {
	ts, err := LoadTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ts.Names() {
		if !ts.Get(name).Substitute {
			t.Errorf("built-in table %s is not marked substitute", name)
		}
	}
	fire := ts.Get("artillery-fire")
	for _, c := range []struct {
		d6, fv int
		want   string
	}{{1, -5, "NE"}, {6, -2, "1"}, {6, 0, "1M"}, {3, 5, "1F"}, {6, 12, "2MF"}, {4, -1, "M"}} {
		if got, err := fire.Int(c.d6, c.fv); err != nil || got != c.want {
			t.Errorf("artillery-fire d6 %d fv %d = %q, %v; want %q", c.d6, c.fv, got, err, c.want)
		}
	}
	if hv, _ := ts.Get("unit-values").Word("galleass", "hv"); hv != "2" {
		t.Errorf("galleass hv %q", hv)
	}
}

func TestOverrideTables(t *testing.T) {
	printed := `# the referee's copy of the printed table
table minor-damage
rule 16.12
source printed
cols result
1-6 NE
end
`
	ts, err := LoadTables([]byte(printed))
	if err != nil {
		t.Fatal(err)
	}
	if m := ts.Get("minor-damage"); m.Substitute {
		t.Error("override not used")
	}
	if v, _ := ts.Get("minor-damage").IntCol(6, "result"); v != "NE" {
		t.Errorf("minor-damage 6 = %q after override", v)
	}
	if !ts.Get("major-damage").Substitute {
		t.Error("a table the override does not define was replaced")
	}
}

func TestBadTableFiles(t *testing.T) {
	base := "table minor-damage\nrule 16.12\nsource printed\ncols result\n1-6 NE\nend\n"
	bad := map[string]string{
		"unknown table":   strings.Replace(base, "minor-damage", "minor-damages", 1),
		"gap in rows":     strings.Replace(base, "1-6 NE", "1-5 NE", 1),
		"unknown result":  strings.Replace(base, "1-6 NE", "1-6 explode", 1),
		"no end":          strings.Replace(base, "end\n", "", 1),
		"bad source":      strings.Replace(base, "source printed", "source guessed", 1),
		"short row":       strings.Replace(base, "cols result", "cols result other", 1),
		"bad range":       strings.Replace(base, "1-6 NE", "6-1 NE", 1),
		"twice":           base + base,
		"row before cols": "table minor-damage\nrule 16.12\n1-6 NE\nend\n",
		"no table line":   "rule 16.12\n",
		"wing order":      "table wing-track\nrule 9.7\nsource printed\ncols start lma lf\n" + wings("30 10 20") + "end\n",
	}
	for name, text := range bad {
		if _, err := LoadTables([]byte(text)); !errors.Is(err, ErrTableFile) {
			t.Errorf("%s: LoadTables = %v, want ErrTableFile", name, err)
		}
	}
}

func wings(v string) string {
	var b strings.Builder
	for _, w := range Wings {
		b.WriteString(w + " " + v + "\n")
	}
	return b.String()
}

func FuzzLoadTables(f *testing.F) {
	f.Add(defaultTables)
	f.Add([]byte("table boarding\nrule 16.08\nsource printed\ncols result\n<=1 A\n2-3 4\n>=4 R\nend\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := LoadTables(data)
		if err != nil {
			return
		}
		// A file that loads answers every lookup the rules make.
		for name, n := range needs {
			if err := checkTable(ts.Get(name), n); err != nil {
				t.Fatalf("loaded tables fail %s: %v", name, err)
			}
		}
	})
}
