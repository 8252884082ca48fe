package templates

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium is Debian's headless browser; NAVARCH_BROWSER=1 (CI) makes its absence a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("NAVARCH_BROWSER") == "1" {
		t.Fatal("NAVARCH_BROWSER=1 but no chromium: apt-get install -y chromium")
	}
	t.Skip("no chromium (apt-get install -y chromium; NAVARCH_BROWSER=1 makes this a failure)")
	return ""
}

// browse runs headless Chromium on a page at a window size with more arguments (--dump-dom,
// --screenshot=FILE) and returns its standard output.
func browse(t *testing.T, bin, page string, w, h int, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), fmt.Sprintf("--window-size=%d,%d", w, h)}
	base = append(base, "--allow-file-access-from-files")
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	return out.String()
}

// frame is a page that shows page in a frame of w × h CSS pixels: headless Chromium's window
// is at least 500 px wide, so a phone's width is a frame's. Once the mail has loaded, a script
// writes the mail's scroll width and the frame's width into the DOM, for --dump-dom to read
// back (--allow-file-access-from-files lets it read the frame).
func frame(page string, w, h int) string {
	return fmt.Sprintf(`<!DOCTYPE html><html><body style="margin: 0">
<iframe id="mail" src="%s" style="border: 0; display: block; width: %dpx; height: %dpx"></iframe>
<script>document.getElementById("mail").addEventListener("load", function () {
var e = document.getElementById("mail").contentDocument.documentElement;
var d = document.createElement("div");
d.textContent = "widths " + e.scrollWidth + " " + e.clientWidth;
document.body.appendChild(d); });</script></body></html>`, filepath.Base(page), w, h)
}

var widthsRE = regexp.MustCompile(`widths (\d+) (\d+)`)

// browserPages are the mails TestMailsInBrowser looks at: a request, a report with the
// turn's end and the next request, and a welcome with its order help, each with
// a checkpoint as long as a real one.
func browserPages() map[string]Mail {
	s := samples()
	sig := strings.Repeat("5be1c2d3e4f5a6b7", 8) // an Ed25519 signature: 128 hex digits
	out := map[string]Mail{}
	for _, kind := range []string{"request", "report", "welcome"} {
		m := s[kind]
		m.Checkpoint = "-----BEGIN NAVARCH CHECKPOINT-----\ngame c646ef0e5a1b2c3d4e5f60718293a4b5\nsize 214\nhead " +
			strings.Repeat("4a9bc910", 8) + "\nsignature " + sig + "\n-----END NAVARCH CHECKPOINT-----\n"
		switch b := m.Body.(type) {
		case Report:
			b.TurnEnd.Checkpoint = m.Checkpoint
			m.Body = b
		case Welcome: // the order help, with lines as long as a ruleset's
			b.Help = "Lepanto 1571 orders: one line per unit, in the order the units act (13.2); a stack's units may share a line.\n" +
				"  BAR-VEN1 MOVE 0610 0710 FIRE SIR-EGY1            move two hexes, then fire at a target in arc (5.1, 5.5)\n" +
				"  BAR-VEN1 RAM SIR-EGY1|GRAPPLE SIR-EGY1|PASS|REPAIR|SAIL ON|SAIL OFF|TURN NE|BACK 0609"
			b.Checkpoint = m.Checkpoint
			m.Body = b
		}
		out[kind] = m
	}
	return out
}

// TestMailsInBrowser: the HTML parts of a request, a report and a welcome (the
// order help), in headless Chromium at phone (390 px, in a frame) and desktop (1280 px)
// width, never run off the screen; the phone screenshots of the request and the report are
// kept in testdata/*.phone.png (go test -update rewrites them; look at them after a change to
// the HTML).
func TestMailsInBrowser(t *testing.T) {
	bin := chromium(t)
	mapPNG, err := os.ReadFile("../docs/example/map.png")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for kind, m := range browserPages() {
		p, err := Render(kind, m)
		if err != nil {
			t.Fatal(err)
		}
		html := p.HTML
		attached := ""
		switch b := m.Body.(type) {
		case Report:
			attached = b.Map
		case Request:
			attached = b.Map
		}
		if attached != "" {
			if err := os.WriteFile(filepath.Join(dir, attached), mapPNG, 0o644); err != nil {
				t.Fatal(err)
			}
			html = strings.ReplaceAll(html, "cid:"+attached, attached)
		}
		page := filepath.Join(dir, kind+".html")
		if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{phoneWidth, 1280} {
			harness := filepath.Join(dir, fmt.Sprintf("%s-%d.html", kind, w))
			if err := os.WriteFile(harness, []byte(frame(page, w, 900)), 0o644); err != nil {
				t.Fatal(err)
			}
			dom := browse(t, bin, harness, max(w, 500), 1000, "--dump-dom")
			got := widthsRE.FindStringSubmatch(dom)
			if got == nil {
				t.Fatalf("%s at %d px: the page script wrote no widths:\n%s", kind, w, dom)
			}
			scroll, _ := strconv.Atoi(got[1])
			inner, _ := strconv.Atoi(got[2])
			if inner != w || scroll > inner {
				t.Errorf("%s at %d px: the mail is %d px wide in a %d px frame: something runs off the screen", kind, w, scroll, inner)
			}
		}
		if kind == "welcome" {
			continue // checked for width only: the phone screenshots are a request's and a report's
		}
		harness := filepath.Join(dir, kind+"-shot.html")
		if err := os.WriteFile(harness, []byte(frame(page, phoneWidth, shotHeight)), 0o644); err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(dir, kind+".png")
		browse(t, bin, harness, 500, shotHeight, "--screenshot="+shot)
		crop(t, shot, phoneWidth)
		goldenPNG(t, kind+".phone.png", shot)
	}
}

// phoneWidth is a phone's width in CSS pixels (an iPhone 12 to 15); shotHeight is the
// height of the phone screenshots.
const (
	phoneWidth = 390
	shotHeight = 2000
)

// crop cuts a screenshot down to its left w pixels: the phone frame.
func crop(t *testing.T, file string, w int) {
	t.Helper()
	f, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	sub := img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(b.Min.X, b.Min.Y, b.Min.X+w, b.Max.Y))
	var out bytes.Buffer
	if err := png.Encode(&out, sub); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goldenPNG keeps a screenshot as testdata/NAME (-update). Fonts differ from machine to
// machine, so the check is that the kept screenshot is a PNG of the same size, not that
// every pixel agrees; the file is there to be looked at.
func goldenPNG(t *testing.T, name, shot string) {
	t.Helper()
	got, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	g, err1 := png.DecodeConfig(bytes.NewReader(got))
	w, err2 := png.DecodeConfig(bytes.NewReader(want))
	if err1 != nil || err2 != nil || g.Width != w.Width || g.Height != w.Height {
		t.Errorf("%s: screenshot %dx%d (%v), kept %dx%d (%v)", name, g.Width, g.Height, err1, w.Width, w.Height, err2)
	}
}
