package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// sNailReply has s-nail, a real mail client (the Debian package, with Debian's
// /etc/s-nail.rc: quote the message replied to with "> ", honour Reply-To), reply as user to
// the mail with uid in the user's INBOX on Dovecot, writing body as the user would type it
// (after the attribution line and the quote, where s-nail puts the cursor), and send the
// reply through Postfix. s-nail writes its own headers: From, a Message-ID @ the user's
// domain, In-Reply-To and References naming navarch's mail.
func sNailReply(t *testing.T, user string, uid imap.UID, body string) {
	t.Helper()
	path, err := exec.LookPath("s-nail")
	if err != nil {
		t.Fatal("s-nail is not installed (apt-get install s-nail; .ci/run installs it)")
	}
	n := seqOf(t, user, uid)
	local := strings.Split(user, "@")[0]
	cmd := exec.Command(path, "-#", "-S", "v15-compat", "-S", "password="+local+"-secret", "-S", "imap-auth=login",
		"-S", "mta=smtp://"+smtpAddr, "-S", "smtp-auth=none", "-S", "from="+user,
		"-f", "imap://"+strings.ReplaceAll(user, "@", "%40")+"@"+imapAddr+"/INBOX")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "MAILRC=/dev/null") // no user's settings, no dead.letter left behind
	cmd.Stdin = strings.NewReader("reply " + strconv.Itoa(n) + "\n" + body + "\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil || strings.Contains(out.String(), "not sent") {
		t.Fatalf("s-nail: %v\n%s", err, out.String())
	}
	t.Logf("s-nail replied as %s to message %d (UID %d)", user, n, uid)
}

// seqOf is the message sequence number of a UID in the user's INBOX, by which s-nail names
// messages.
func seqOf(t *testing.T, user string, uid imap.UID) int {
	t.Helper()
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, strings.Split(user, "@")[0]+"-secret").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	data, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	uids := data.AllUIDs()
	slices.Sort(uids)
	i := slices.Index(uids, uid)
	if i < 0 {
		t.Fatalf("UID %d is not in %s's INBOX", uid, user)
	}
	return i + 1
}

// muttReply has mutt, a real mail client (the Debian package, with its own defaults but for
// the answers a person gives its questions: quote the message, reply to its Reply-To), reply
// as user to navarch's mail with Message-ID id: mutt reads it from Dovecot over IMAP, opens
// the reply in the player's editor with its attribution line ("On DATE, NAME wrote:") and the
// mail quoted with "> ", the player types body above the quote (top-posting), and mutt sends
// it through Postfix with its own headers. mutt wants a terminal: script(1) gives it one.
func muttReply(t *testing.T, user, id, body string) {
	t.Helper()
	for _, tool := range []string{"mutt", "script"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (apt-get install mutt; .ci/run installs it)", tool)
		}
	}
	dir := t.TempDir()
	local := strings.Split(user, "@")[0]
	orders := filepath.Join(dir, "orders.txt")
	editor := filepath.Join(dir, "edit.sh")
	rc := filepath.Join(dir, "muttrc")
	files := map[string]string{
		orders: body + "\n",
		// The player's editor: his orders typed at the top, above the attribution and quote.
		editor: "#!/bin/sh\n{ cat '" + orders + "'; echo; cat \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n",
		rc: "set folder=\"imap://" + strings.ReplaceAll(user, "@", "%40") + "@" + imapAddr + "/\"\nset spoolfile=\"+INBOX\"\n" +
			"set imap_pass=\"" + local + "-secret\"\nset smtp_url=\"smtp://" + smtpAddr + "/\"\nset ssl_starttls=no\nset ssl_force_tls=no\n" +
			"set from=\"" + user + "\"\nset realname=\"" + local + "\"\nset editor=\"" + editor + "\"\nset record=\"\"\n" +
			"set include=yes\nset fast_reply=yes\nset reply_to=yes\nset wait_key=no\n",
	}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	line := "mutt -n -F '" + rc + "' -e 'push \"<limit>~i " + id + "<enter><reply>y<quit>\"'"
	cmd := exec.CommandContext(ctx, "script", "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), "HOME="+dir, "TERM=xterm")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("mutt: %v\n%s", err, out.String())
	}
	t.Logf("mutt replied as %s to %s", user, id)
}
