package adjudicator_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"navarch/adjudicator"
)

// words is the lines' numbers and words, for comparison.
func words(lines []adjudicator.Line) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%d:%s;", l.N, strings.Join(l.Words, " "))
	}
	return b.String()
}

// TestReadLines: the one reading of order text every ruleset shares (docs/ORDERS.md).
func TestReadLines(t *testing.T) {
	long := "A MOVE " + strings.Repeat("F", adjudicator.MaxLine-7)
	for _, c := range []struct {
		name, text, want string
		errs             []int // the lines refused
	}{
		{"LF", "a move 1\nb hold", "1:A MOVE 1;2:B HOLD;", nil},
		{"CRLF", "a move 1\r\nb hold\r\n", "1:A MOVE 1;2:B HOLD;", nil},
		{"lone CR", "a move 1\rb hold", "1:A MOVE 1;2:B HOLD;", nil},
		{"blank lines and comments keep the numbers", "\n# my plan\n  a\tmove  1 # the left\n\n\u00a0b hold\u00a0\n", "3:A MOVE 1;5:B HOLD;", nil},
		{"a comment mark anywhere", "a move 1#left\n#\n####", "1:A MOVE 1;", nil},
		{"END stops", "a hold\nEND\nb hold\nthe rest of the mail", "1:A HOLD;", nil},
		{"END in any case, with a comment", "a hold\n  end   # that's all\nb hold", "1:A HOLD;", nil},
		{"END first", "END\na hold", "", nil},
		{"END with other words is refused", "END OF ORDERS\na hold", "2:A HOLD;", []int{1}},
		{"ENDS is a word", "ENDS here", "1:ENDS HERE;", nil},
		{"a line of MaxLine characters", long, "1:" + strings.Join(strings.Fields(long), " ") + ";", nil},
		{"a longer line is refused, the others read", "a hold\n" + long + "F\nb hold", "1:A HOLD;3:B HOLD;", []int{2}},
		{"characters, not bytes", "A " + strings.Repeat("é", adjudicator.MaxLine-2), "1:A " + strings.Repeat("É", adjudicator.MaxLine-2) + ";", nil},
		{"a long comment-only line is skipped", "#" + strings.Repeat("x", 2*adjudicator.MaxLine) + "\na hold", "2:A HOLD;", nil},
		{"nothing is read after END, long lines neither", "a hold\nend\n" + long + "FF", "1:A HOLD;", nil},
		{"empty", "", "", nil},
		{"only white space", " \t\r\n\r\n  ", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines, errs := adjudicator.ReadLines(c.text)
			if got := words(lines); got != c.want {
				t.Errorf("read %q, want %q", got, c.want)
			}
			var at []int
			for _, e := range errs {
				at = append(at, e.Line)
				if !errors.Is(e.Err, adjudicator.ErrNotUnderstood) || utf8.RuneCountInString(e.Text) > adjudicator.MaxLine {
					t.Errorf("error %v: not ErrNotUnderstood, or its text too long", e)
				}
			}
			if !slices.Equal(at, c.errs) {
				t.Errorf("errors on lines %v (%v), want %v", at, errs, c.errs)
			}
		})
	}
}

// TestReadLinesSays: the refusals say what was wrong and show the line as written.
func TestReadLinesSays(t *testing.T) {
	_, errs := adjudicator.ReadLines("  End of orders  \r\n" + strings.Repeat("x", adjudicator.MaxLine+50))
	if len(errs) != 2 {
		t.Fatalf("%v, want two errors", errs)
	}
	if e := errs[0]; e.Line != 1 || e.Text != "End of orders" || !strings.Contains(e.Error(), "END stands alone on its line") {
		t.Errorf("END with words: %+v %q", e, e.Error())
	}
	if e := errs[1]; e.Line != 2 || e.Text != strings.Repeat("x", adjudicator.MaxLine) || !strings.Contains(e.Error(), "more than 400 characters") {
		t.Errorf("a long line: line %d, %d characters shown, %q", e.Line, len(e.Text), e.Error())
	}
}

// TestParseLines: a line the ruleset refuses is answered with its reason and the legal forms,
// the good lines around it are read, and the errors come in line order with the reader's.
func TestParseLines(t *testing.T) {
	parse := func(l adjudicator.Line) (adjudicator.Order, error) {
		if l.Words[0] != "OK" {
			return nil, errors.New("want OK")
		}
		return nil, nil
	}
	text := "nope\nOK\n" + strings.Repeat("y", adjudicator.MaxLine+1) + "\nOK\nbad again\nEND\nnope"
	orders, errs := adjudicator.ParseLines(text, []string{"OK"}, parse)
	if len(orders) != 2 || len(errs) != 3 {
		t.Fatalf("%d orders, errors %v; want 2 and 3", len(orders), errs)
	}
	for i, want := range []int{1, 3, 5} {
		if errs[i].Line != want || !errors.Is(errs[i].Err, adjudicator.ErrNotUnderstood) {
			t.Errorf("error %d: %+v, want line %d", i, errs[i], want)
		}
	}
	if !strings.Contains(errs[0].Error(), "want OK") || !slices.Equal(errs[0].Legal, []string{"OK"}) || errs[0].Text != "nope" {
		t.Errorf("the ruleset's refusal: %+v", errs[0])
	}
}

// FuzzReadLines: any text is read without a panic; every line kept is numbered within the
// text, in order, holds upper-case words without white space or comment marks, and reads
// back the same when its text is put again at its number.
func FuzzReadLines(f *testing.F) {
	for _, s := range []string{"", "a move 1\r\nb hold\r\nEND\r\nsig", "\n#x\n a b # c\n", "END OF ORDERS\nx",
		strings.Repeat("z", adjudicator.MaxLine+1), "a\rb\r\n\rc", "\xff\xfe # \x00", "é\u00a0è\u2028x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		lines, errs := adjudicator.ReadLines(text)
		count := strings.Count(text, "\n") + strings.Count(text, "\r") + 1
		last := 0
		for _, l := range lines {
			if l.N <= last || l.N > count || len(l.Words) == 0 || strings.ContainsAny(l.Text, "\r\n") {
				t.Fatalf("line %+v after line %d of %d", l, last, count)
			}
			last = l.N
			for _, w := range l.Words {
				if w == "" || strings.ContainsAny(w, "# \t\r\n") || w != strings.ToUpper(w) {
					t.Fatalf("line %d: word %q", l.N, w)
				}
			}
		}
		for _, e := range errs {
			if e.Line < 1 || e.Line > count || !errors.Is(e.Err, adjudicator.ErrNotUnderstood) {
				t.Fatalf("error %+v", e)
			}
		}
		if len(lines) == 0 {
			return
		}
		again := make([]string, last)
		for _, l := range lines {
			again[l.N-1] = l.Text
		}
		back, errs := adjudicator.ReadLines(strings.Join(again, "\n"))
		if words(back) != words(lines) || len(errs) != 0 {
			t.Fatalf("read back %q (%v), want %q", words(back), errs, words(lines))
		}
	})
}
