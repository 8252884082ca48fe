package racesplit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the module's directory, from this package's.
const root = "../.."

// makeVar returns the words of a variable of the Makefile (VAR = words, continued by
// backslashes).
func makeVar(t *testing.T, makefile, name string) []string {
	t.Helper()
	joined := strings.ReplaceAll(makefile, "\\\n", " ")
	m := regexp.MustCompile(`(?m)^` + name + ` *=(.*)$`).FindStringSubmatch(joined)
	if m == nil {
		t.Fatalf("the Makefile sets no %s", name)
	}
	return strings.Fields(m[1])
}

// pkg is one package directory of the module: its Go files parsed.
type pkg struct {
	path  string // import path
	files map[string]*ast.File
}

// modulePackages parses every Go file of the module, by package directory.
func modulePackages(t *testing.T) map[string]*pkg {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := strings.Fields(strings.SplitN(string(mod), "\n", 2)[0])[1]
	pkgs := map[string]*pkg{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		ip := path.Join(module, filepath.ToSlash(rel))
		if pkgs[ip] == nil {
			pkgs[ip] = &pkg{path: ip, files: map[string]*ast.File{}}
		}
		pkgs[ip].files[filepath.Base(p)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// onceOnly are the parts of sync a package outside the race list may use: a value computed
// once, on first use, and read only after (a ruleset's built-in data); the code that would
// change such a value from two goroutines is a concurrent caller's, raced in its own package.
var onceOnly = map[string]bool{"Once": true, "OnceFunc": true, "OnceValue": true, "OnceValues": true}

// concurrency lists what in p's files starts a goroutine or shares memory across goroutines:
// go statements, sync/atomic, sync beyond onceOnly, t.Parallel in its tests.
func concurrency(p *pkg) []string {
	var found []string
	names := slices.Sorted(maps.Keys(p.files))
	for _, name := range names {
		f := p.files[name]
		syncName := ""
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			switch ip {
			case "sync/atomic":
				found = append(found, name+": imports sync/atomic")
			case "sync":
				syncName = "sync"
				if im.Name != nil {
					syncName = im.Name.Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				found = append(found, name+": starts a goroutine (go statement)")
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && syncName != "" && id.Name == syncName && !onceOnly[n.Sel.Name] {
					found = append(found, name+": uses sync."+n.Sel.Name)
				}
			case *ast.CallExpr:
				if s, ok := n.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Parallel" && len(n.Args) == 0 && strings.HasSuffix(name, "_test.go") {
					found = append(found, name+": runs tests in parallel (t.Parallel)")
				}
			}
			return true
		})
	}
	return found
}

// longTests returns the tests of p that skip under the race detector: those that call
// racesplit.Long, or a function of their own package that calls it.
func longTests(p *pkg) []string {
	callsLong := func(body ast.Node, helpers map[string]bool) bool {
		found := false
		ast.Inspect(body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				switch fn := c.Fun.(type) {
				case *ast.SelectorExpr:
					if id, ok := fn.X.(*ast.Ident); ok && id.Name == "racesplit" && fn.Sel.Name == "Long" {
						found = true
					}
				case *ast.Ident:
					if helpers[fn.Name] {
						found = true
					}
				}
			}
			return !found
		})
		return found
	}
	helpers := map[string]bool{}
	var funcs []*ast.FuncDecl
	for _, f := range p.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs = append(funcs, fd)
				if fd.Recv == nil && !strings.HasPrefix(fd.Name.Name, "Test") && callsLong(fd.Body, nil) {
					helpers[fd.Name.Name] = true
				}
			}
		}
	}
	var out []string
	for _, fd := range funcs {
		if fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") && callsLong(fd.Body, helpers) {
			out = append(out, fd.Name.Name)
		}
	}
	sort.Strings(out)
	return out
}

// TestRaceSplit holds the Makefile's split to docs/DEVELOPING.md's rule ("How make test runs
// the tests"): make race runs RACE_PKGS under the race detector and make norace the other
// packages without it, so a package outside RACE_PKGS must start no goroutine, use no sync
// but a value computed once, and run no test in parallel (the detector finds a race only
// between goroutines that run); a package in RACE_PKGS must have something to race; and each
// test skipped under the detector (racesplit.Long) is in a package of LONG_PKGS and named in
// LONG_TESTS, which make long runs without it, and LONG_TESTS names no other.
func TestRaceSplit(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	makefile := string(data)
	race := map[string]bool{}
	for _, p := range makeVar(t, makefile, "RACE_PKGS") {
		race[p] = true
	}
	longPkgs := map[string]bool{}
	for _, p := range makeVar(t, makefile, "LONG_PKGS") {
		longPkgs[p] = true
	}
	listed := map[string]bool{}
	for _, n := range strings.Split(strings.Join(makeVar(t, makefile, "LONG_TESTS"), ""), "|") {
		listed[n] = true
	}
	pkgs := modulePackages(t)
	for p := range race {
		if pkgs[p] == nil {
			t.Errorf("RACE_PKGS names %s, not a package of the module", p)
		}
	}
	for p := range longPkgs {
		if pkgs[p] == nil {
			t.Errorf("LONG_PKGS names %s, not a package of the module", p)
		}
	}
	skipped := map[string]bool{}
	for _, ip := range slices.Sorted(maps.Keys(pkgs)) {
		p := pkgs[ip]
		found := concurrency(p)
		switch {
		case !race[ip] && len(found) > 0:
			t.Errorf("%s runs without the race detector (not in the Makefile's RACE_PKGS), but:\n\t%s", ip, strings.Join(found, "\n\t"))
		case race[ip] && len(found) == 0:
			t.Errorf("%s is in RACE_PKGS but starts no goroutine and shares nothing across goroutines: the run without the detector is the faster one for it", ip)
		}
		for _, name := range longTests(p) {
			skipped[name] = true
			switch {
			case !race[ip]:
				t.Errorf("%s.%s skips under the race detector, but %s runs without it anyway: drop racesplit.Long", ip, name, ip)
			case !longPkgs[ip] || !listed[name]:
				t.Errorf("%s.%s skips under the race detector but make long does not run it: add %s to LONG_TESTS and %s to LONG_PKGS", ip, name, name, ip)
			}
		}
	}
	for name := range listed {
		if !skipped[name] {
			t.Errorf("LONG_TESTS names %s, which no test of LONG_PKGS by that name skips under the race detector (racesplit.Long)", name)
		}
	}
}
