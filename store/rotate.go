package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// backupLayout names rotated backups so that their names sort by time.
const backupLayout = "20060102T150405Z"

// Rotation keeps timed copies of the database in one directory (the daemon's own backups,
// taken while it holds the file).
type Rotation struct {
	Dir   string
	Every time.Duration // 0: no backups
	Keep  int           // how many to keep; at least 1
}

// Latest returns the time of the newest backup in the directory, or the zero time.
func (r Rotation) Latest() time.Time {
	names := r.backups()
	if len(names) == 0 {
		return time.Time{}
	}
	t, _ := time.Parse(backupLayout, strings.TrimSuffix(strings.TrimPrefix(names[len(names)-1], "navarch-"), ".db"))
	return t
}

// Due says whether a backup is due at now.
func (r Rotation) Due(now time.Time) bool {
	return r.Every > 0 && now.Sub(r.Latest()) >= r.Every
}

// Take writes a consistent copy of the database named by now, then removes the oldest
// copies beyond Keep. It returns the new copy's path.
func (r Rotation) Take(s *Store, now time.Time) (string, error) {
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return "", fmt.Errorf("backup: %w", err)
	}
	path := filepath.Join(r.Dir, "navarch-"+now.UTC().Format(backupLayout)+".db")
	if _, err := s.BackupFile(path); err != nil {
		return "", err
	}
	names := r.backups()
	for len(names) > max(r.Keep, 1) {
		if err := os.Remove(filepath.Join(r.Dir, names[0])); err != nil {
			return path, fmt.Errorf("backup: remove the oldest: %w", err)
		}
		names = names[1:]
	}
	return path, nil
}

// backups lists the directory's backups, oldest first; other files are left alone.
func (r Rotation) backups() []string {
	entries, _ := os.ReadDir(r.Dir)
	var names []string
	for _, e := range entries {
		stamp, ok := strings.CutPrefix(e.Name(), "navarch-")
		if stamp, ok2 := strings.CutSuffix(stamp, ".db"); ok && ok2 && e.Type().IsRegular() {
			if _, err := time.Parse(backupLayout, stamp); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return names
}
