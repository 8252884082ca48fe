package gamelog_test

import (
	"os"
	"testing"
)

var tempDirs []string

func tempDir() (string, error) {
	d, err := os.MkdirTemp("", "navarch-gamelog-")
	if err == nil {
		tempDirs = append(tempDirs, d)
	}
	return d, err
}

func TestMain(m *testing.M) {
	if os.Getenv(timeChildEnv) == "1" {
		os.Exit(timeChild(os.Args[1:]))
	}
	code := m.Run()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
