package main

import (
	"fmt"
	"io"
	"os"

	"navarch/webverify"
)

var webverifyCmd = command{
	name:    "webverify",
	summary: "write the browser verifier (one self-contained HTML page) for players without navarch",
	usage: `navarch webverify [-o FILE]

Writes verify.html: a single page that checks an exported game log as navarch verify
does, offline in any browser, with nothing installed (drop in the log, the verifier key
or the genesis mail, and saved mails with checkpoints). It is a second, independent
implementation of docs/LOG-FORMAT.md. Without -o the page goes to standard output.`,
}

func init() { webverifyCmd.run = runWebverify }

func runWebverify(args []string, stdout, stderr io.Writer) int {
	fs := webverifyCmd.flags(stderr)
	out := fs.String("o", "", "the file to write (default: standard output)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	if *out == "" {
		if _, err := stdout.Write(webverify.Page); err != nil {
			fmt.Fprintf(stderr, "navarch webverify: %v\n", err)
			return 1
		}
		return 0
	}
	if err := os.WriteFile(*out, webverify.Page, 0o644); err != nil {
		fmt.Fprintf(stderr, "navarch webverify: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes): open it in a browser, offline\n", *out, len(webverify.Page))
	return 0
}
