package gamelog

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// buildBoth builds b both ways, Build and buildParsed (the bytes parsed), and fails unless
// they agree: both refuse it, or both give the same record.
func buildBoth(t *testing.T, b *Builder, index uint64) {
	t.Helper()
	got, err := b.Build(index)
	want, werr := b.buildParsed(index)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("%s record %+v: Build's error %v, the parse's %v", b.typ, b.fields, err, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s record %+v: Build gives %+v, the parse %+v", b.typ, b.fields, got, want)
	}
	if fast, ok := b.buildChecked(index); ok && werr != nil {
		t.Fatalf("%s record %+v: written as %q without a check, which the parse refuses: %v", b.typ, b.fields, fast.Raw, werr)
	}
}

// TestBuildAsParse: every record of the example logs, rebuilt from its fields, is built as
// the parse of its bytes gives it, and so is each with a field dropped, doubled or given
// another field's value (records the schema refuses, or other ones).
func TestBuildAsParse(t *testing.T) {
	files, _ := filepath.Glob("../docs/example/*.log")
	more, _ := filepath.Glob("../docs/example/v*/*.log")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no example logs")
	}
	checked := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ParseFile(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range f.Entries {
			for _, rec := range []*Record{e.Record, e.Inner} {
				if rec == nil {
					continue
				}
				fields := rec.Fields()
				b := New(rec.Type)
				b.fields = fields
				got, err := b.Build(rec.Index)
				if err != nil || !bytes.Equal(got.Raw, rec.Raw) || !reflect.DeepEqual(got.lines, rec.lines) {
					t.Fatalf("%s record %d: rebuilt as %q (%v), not %q", name, rec.Index, got.Raw, err, rec.Raw)
				}
				buildBoth(t, b, rec.Index)
				checked++
				for i := range fields {
					drop := append(append([]Field(nil), fields[:i]...), fields[i+1:]...)
					buildBoth(t, &Builder{typ: rec.Type, fields: drop}, rec.Index)
					double := append(append(append([]Field(nil), fields[:i+1]...), fields[i]), fields[i+1:]...)
					buildBoth(t, &Builder{typ: rec.Type, fields: double}, rec.Index)
					other := append([]Field(nil), fields...)
					other[i].Value = fields[(i+1)%len(fields)].Value
					buildBoth(t, &Builder{typ: rec.Type, fields: other}, rec.Index)
					newline := append([]Field(nil), fields...)
					newline[i].Value += "\n" + fields[(i+1)%len(fields)].Key + " " + fields[(i+1)%len(fields)].Value
					buildBoth(t, &Builder{typ: rec.Type, fields: newline}, rec.Index)
				}
			}
		}
	}
	t.Logf("%d records", checked)
}

// FuzzBuild: a builder of any type, keys and values builds as the parse of the bytes it
// writes gives them (Build checks the fields without parsing where it can).
func FuzzBuild(f *testing.F) {
	f.Add(uint8(3), []byte("turn\x001\x00activation\x002\x00state-hash\x00"+string(bytes.Repeat([]byte("ab"), 32))), uint64(7))
	f.Add(uint8(0), []byte("text\x00a\nb\x00"), uint64(0))
	f.Fuzz(func(t *testing.T, typ uint8, spec []byte, index uint64) {
		b := New(Types[int(typ)%len(Types)])
		if typ >= 200 {
			b.typ += "x"
		}
		parts := bytes.Split(spec, []byte{0})
		for i := 0; i+1 < len(parts); i += 2 {
			b.Add(string(parts[i]), string(parts[i+1]))
		}
		buildBoth(t, b, index)
	})
}

// FuzzCleanText: CleanText, which returns a text it finds clean as it is, gives what cleaning
// it rune by rune gives.
func FuzzCleanText(f *testing.F) {
	for _, s := range []string{"", "a", " a", "a ", "a  b", "a b", "a\tb", "é", "\u00a0x", strings.Repeat("ab ", 700)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := CleanText(s), cleanAll(s); got != want {
			t.Fatalf("CleanText(%q) = %q, rune by rune %q", s, got, want)
		}
	})
}
