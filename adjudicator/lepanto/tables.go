package lepanto

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/tables.txt
var defaultTables []byte

// ErrTableFile marks a table file that cannot be used; the message names the line.
var ErrTableFile = errors.New("lepanto: table file")

// Table is one two-way lookup table of the rules (section 16 and the other unprinted values).
type Table struct {
	Name, Rule, Title string
	Substitute        bool // designed by navarch, not the printed value
	cols              []key
	rows              []key
	cells             [][]string
}

// key is a row or column key: a word, or an integer range lo..hi.
type key struct {
	word   string
	lo, hi int
}

const (
	minInt = -1 << 31
	maxInt = 1<<31 - 1
)

func parseKey(s string) (key, error) {
	switch {
	case s == "":
		return key{}, fmt.Errorf("empty key")
	case strings.HasPrefix(s, "<="):
		n, err := strconv.Atoi(s[2:])
		return key{lo: minInt, hi: n}, err
	case strings.HasPrefix(s, ">="):
		n, err := strconv.Atoi(s[2:])
		return key{lo: n, hi: maxInt}, err
	case s[0] == '-' || s[0] >= '0' && s[0] <= '9':
		if a, b, ok := strings.Cut(s[1:], "-"); ok {
			lo, err1 := strconv.Atoi(s[:1] + a)
			hi, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil || lo > hi {
				return key{}, fmt.Errorf("bad range %q", s)
			}
			return key{lo: lo, hi: hi}, nil
		}
		n, err := strconv.Atoi(s)
		return key{lo: n, hi: n}, err
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return key{}, fmt.Errorf("bad key %q", s)
		}
	}
	return key{word: s}, nil
}

func (k key) matchInt(n int) bool { return k.word == "" && k.lo <= n && n <= k.hi }

func find(keys []key, word string, n int) int {
	for i, k := range keys {
		if word != "" && k.word == word || word == "" && k.matchInt(n) {
			return i
		}
	}
	return -1
}

// Int looks up a row and column by integers.
func (t *Table) Int(row, col int) (string, error) { return t.lookup("", row, "", col) }

// Word looks up a row by word and a column by word.
func (t *Table) Word(row, col string) (string, error) { return t.lookup(row, 0, col, 0) }

// IntCol looks up a row by integer and a column by word.
func (t *Table) IntCol(row int, col string) (string, error) { return t.lookup("", row, col, 0) }

func (t *Table) lookup(rw string, rn int, cw string, cn int) (string, error) {
	r, c := find(t.rows, rw, rn), find(t.cols, cw, cn)
	if r < 0 || c < 0 {
		return "", fmt.Errorf("table %s (%s) has no entry for row %s, column %s", t.Name, t.Rule, keyText(rw, rn), keyText(cw, cn))
	}
	return t.cells[r][c], nil
}

func keyText(w string, n int) string {
	if w != "" {
		return w
	}
	return strconv.Itoa(n)
}

// Tables is a complete set of tables for a game.
type Tables struct {
	byName map[string]*Table
	order  []string
}

// Get returns the named table; every name used by the rules is checked present at load.
func (ts *Tables) Get(name string) *Table { return ts.byName[name] }

// Names lists the tables in file order.
func (ts *Tables) Names() []string { return slices.Clone(ts.order) }

// LoadTables returns the default tables with the tables of each override file replacing
// those of the same name, and checks the result against what the rules need.
func LoadTables(overrides ...[]byte) (*Tables, error) {
	if len(overrides) == 0 {
		return defaultLoaded()
	}
	return loadTables(overrides)
}

// defaultLoaded is the built-in tables, parsed and checked once: Tables are never changed
// after loading, so every game without a corrected table file shares them.
var defaultLoaded = sync.OnceValues(func() (*Tables, error) { return loadTables(nil) })

func loadTables(overrides [][]byte) (*Tables, error) {
	ts, err := parseTables(defaultTables)
	if err != nil {
		return nil, fmt.Errorf("built-in tables: %w", err)
	}
	for _, o := range overrides {
		more, err := parseTables(o)
		if err != nil {
			return nil, err
		}
		for _, name := range more.order {
			if ts.byName[name] == nil {
				return nil, fmt.Errorf("%w: unknown table %q", ErrTableFile, name)
			}
			ts.byName[name] = more.byName[name]
		}
	}
	return ts, checkTables(ts)
}

func parseTables(data []byte) (*Tables, error) {
	ts := &Tables{byName: map[string]*Table{}}
	var cur *Table
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		var err error
		cur, err = ts.parseLine(cur, line)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrTableFile, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrTableFile, err)
	}
	if cur != nil {
		return nil, fmt.Errorf("%w: table %s has no end line", ErrTableFile, cur.Name)
	}
	return ts, nil
}

func (ts *Tables) parseLine(cur *Table, line string) (*Table, error) {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	if cur == nil {
		if word != "table" || rest == "" || strings.Contains(rest, " ") {
			return nil, fmt.Errorf("want \"table NAME\", have %q", line)
		}
		if ts.byName[rest] != nil {
			return nil, fmt.Errorf("table %s defined twice", rest)
		}
		return &Table{Name: rest}, nil
	}
	switch word {
	case "rule":
		cur.Rule = rest
	case "title":
		cur.Title = rest
	case "source":
		if rest != "substitute" && rest != "printed" {
			return nil, fmt.Errorf("source %q: want substitute or printed", rest)
		}
		cur.Substitute = rest == "substitute"
	case "cols":
		return cur, cur.parseCols(rest)
	case "end":
		return nil, ts.finish(cur)
	default:
		return cur, cur.parseRow(line)
	}
	return cur, nil
}

func (t *Table) parseCols(rest string) error {
	if t.cols != nil || rest == "" {
		return fmt.Errorf("table %s: one cols line with at least one column", t.Name)
	}
	for _, f := range strings.Fields(rest) {
		k, err := parseKey(f)
		if err != nil {
			return err
		}
		t.cols = append(t.cols, k)
	}
	return nil
}

func (t *Table) parseRow(line string) error {
	f := strings.Fields(line)
	if t.cols == nil {
		return fmt.Errorf("table %s: row before the cols line", t.Name)
	}
	if len(f) != len(t.cols)+1 {
		return fmt.Errorf("table %s: row %q has %d values for %d columns", t.Name, f[0], len(f)-1, len(t.cols))
	}
	k, err := parseKey(f[0])
	if err != nil {
		return err
	}
	t.rows = append(t.rows, k)
	t.cells = append(t.cells, f[1:])
	return nil
}

func (ts *Tables) finish(t *Table) error {
	if t.Rule == "" || len(t.rows) == 0 {
		return fmt.Errorf("table %s needs a rule line and rows", t.Name)
	}
	ts.byName[t.Name] = t
	ts.order = append(ts.order, t.Name)
	return nil
}
