package gamelog

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strconv"
	"strings"
	"time"

	"navarch/dice"
	"navarch/ident"
)

// Checkpoint is a signed statement that a game's log had Size records ending in Head.
type Checkpoint struct {
	Game      ident.GameID
	Size      uint64
	Head      ident.Hash
	Signature []byte
	// Mailed is when the mail that carried the checkpoint reached the player (its
	// player-side Received, or Date), where verify --checkpoint read one; not signed. In a
	// beacon game it proves a step's round was named before it was published.
	Mailed time.Time
}

// Body returns the signed bytes' text part:
// "navarch/v1 checkpoint\ngame <hex>\nsize <n>\nhead <hex>\n".
func (c Checkpoint) Body() []byte {
	return fmt.Appendf(nil, "%s checkpoint\ngame %x\nsize %d\nhead %x\n", dice.Version, c.Game[:], c.Size, c.Head[:])
}

// message is what Ed25519 signs: tag "checkpoint" ‖ body.
func (c Checkpoint) message() []byte {
	return append(dice.Tag(dice.TagCheckpoint), c.Body()...)
}

// Sign sets c.Signature with the installation key.
func (c *Checkpoint) Sign(key ed25519.PrivateKey) {
	c.Signature = ed25519.Sign(key, c.message())
}

// Valid reports whether c carries a good signature by pub.
func (c Checkpoint) Valid(pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && len(c.Signature) == ed25519.SignatureSize &&
		ed25519.Verify(pub, c.message(), c.Signature)
}

// Block markers of a checkpoint as it appears in mail.
const (
	BlockBegin = "-----BEGIN NAVARCH CHECKPOINT-----"
	BlockEnd   = "-----END NAVARCH CHECKPOINT-----"
)

// Block returns the checkpoint as the text block that every report mail carries.
func (c Checkpoint) Block() string {
	return fmt.Sprintf("%s\ngame %x\nsize %d\nhead %x\nsignature %x\n%s\n", BlockBegin, c.Game[:], c.Size, c.Head[:], c.Signature, BlockEnd)
}

// ParseBlocks finds every checkpoint block in text (a saved mail, say; quoting "> " and
// CR are tolerated) and parses it. A block that is malformed is an error naming its line.
func ParseBlocks(text []byte) ([]Checkpoint, error) {
	var out []Checkpoint
	var cur []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimLeft(strings.TrimRight(sc.Text(), "\r"), "> "))
		switch {
		case line == BlockBegin:
			in, cur = true, nil
		case line == BlockEnd && in:
			c, err := parseBlock(cur)
			if err != nil {
				return nil, fmt.Errorf("checkpoint ending on line %d: %w", n, err)
			}
			out = append(out, c)
			in = false
		case in:
			cur = append(cur, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read checkpoints: %w", err)
	}
	if in {
		return nil, fmt.Errorf("%w: checkpoint block without end line", ErrSyntax)
	}
	return out, nil
}

func parseBlock(lines []string) (Checkpoint, error) {
	keys := []string{"game", "size", "head", "signature"}
	if len(lines) != len(keys) {
		return Checkpoint{}, fmt.Errorf("%w: want lines %v", ErrSyntax, keys)
	}
	vals := make([]string, len(keys))
	for i, k := range keys {
		v, ok := strings.CutPrefix(lines[i], k+" ")
		if !ok {
			return Checkpoint{}, fmt.Errorf("%w: line %q: want %s", ErrSyntax, clip(lines[i]), k)
		}
		vals[i] = v
	}
	var c Checkpoint
	if err := decodeFixed(c.Game[:], vals[0]); err != nil {
		return c, err
	}
	if checkUint(vals[1]) != nil {
		return c, fmt.Errorf("%w: size %q", ErrSyntax, clip(vals[1]))
	}
	c.Size, _ = strconv.ParseUint(vals[1], 10, 64)
	if err := decodeFixed(c.Head[:], vals[2]); err != nil {
		return c, err
	}
	c.Signature = make([]byte, ed25519.SignatureSize)
	return c, decodeFixed(c.Signature, vals[3])
}

func decodeFixed(dst []byte, v string) error {
	if err := checkHex(v, len(dst)); err != nil {
		return fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	for i := range dst { // checkHex has checked every digit
		dst[i] = (hexDigit[v[2*i]]-1)<<4 | (hexDigit[v[2*i+1]] - 1)
	}
	return nil
}

// CheckpointFromRecord reads a checkpoint record of game.
func CheckpointFromRecord(game ident.GameID, r *Record) Checkpoint {
	return Checkpoint{Game: game, Size: r.Uint("size"), Head: r.Hash32("head"), Signature: r.Bytes("signature")}
}

// exportMessage is what an export's trailer signature signs (v2): tag "export" ‖
// "navarch/v2 export\ngame <hex>\nsize <n>\nhead <hex>\n". Its own tag keeps the signature
// of a checkpoint from serving as the trailer of a file cut at that checkpoint.
func (c Checkpoint) exportMessage() []byte {
	body := fmt.Appendf(nil, "%s export\ngame %x\nsize %d\nhead %x\n", FormatV2, c.Game[:], c.Size, c.Head[:])
	return append(dice.Tag(dice.TagExport), body...)
}

// SignExport signs c as an export's trailer.
func (c *Checkpoint) SignExport(key ed25519.PrivateKey) {
	c.Signature = ed25519.Sign(key, c.exportMessage())
}

// ValidExport reports whether c carries a good trailer signature by pub.
func (c Checkpoint) ValidExport(pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && len(c.Signature) == ed25519.SignatureSize &&
		ed25519.Verify(pub, c.exportMessage(), c.Signature)
}
