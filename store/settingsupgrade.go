package store

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"navarch/ident"
)

// settingsV0 is what the schema steps before settings version 1 (schema 2 → 3 to 4 → 5)
// read of a game's version 0 settings: its tag and its addresses. It is frozen: a later
// form of the settings is Game's, and reaches the stored games by a schema step of its own.
type settingsV0 struct {
	Tag     string `json:"tag"`
	Players []struct {
		Address string `json:"address"`
	} `json:"players"`
	Referees []string `json:"referees"`
}

// readSettingsV0 reads version 0 settings; nil (a game saved without settings) is none.
// Settings that are not a JSON object of that form are an error wrapping ErrSettings.
func readSettingsV0(v []byte) (settingsV0, error) {
	var s settingsV0
	if v == nil {
		return s, nil
	}
	if err := json.Unmarshal(v, &s); err != nil {
		return s, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	return s, nil
}

// upgradeSettingsV1 (schema 9 → 10) rewrites every game's settings from version 0 to 1: a
// deadline or reminder in hours becomes the same time in minutes (the minutes, where a game
// has them, were its times already), and the object gets "version": 1. Every other field is
// kept as stored. A game whose settings are not a JSON object, or whose hours are not whole
// numbers, fails the upgrade: the file stays at schema 9 and the error names the game.
func upgradeSettingsV1(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketGMetaAll)
	return tx.Bucket(bucketGameIDs).ForEach(func(k, _ []byte) error {
		if len(k) != len(ident.GameID{}) {
			return nil
		}
		key := gkey(ident.GameID(k), []byte(metaSettings))
		v := meta.Get(key)
		if v == nil {
			return nil
		}
		out, err := settingsV0ToV1(v)
		if err != nil {
			return fmt.Errorf("game %x settings: %w", k, err)
		}
		return meta.Put(key, out)
	})
}

// settingsV0ToV1 is one game's settings rewritten from version 0 to version 1.
func settingsV0ToV1(v []byte) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(v, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%w: not a JSON object: %q", ErrSettings, truncate(v))
	}
	if ver, ok := obj["version"]; ok && !bytes.Equal(ver, []byte("0")) {
		return nil, fmt.Errorf("%w: version %s where version 0 was expected", ErrSettings, ver)
	}
	for _, f := range []struct{ hours, minutes string }{{"deadline_hours", "deadline_minutes"}, {"reminder_hours", "reminder_minutes"}} {
		raw, ok := obj[f.hours]
		if !ok {
			continue
		}
		var hours, minutes int
		if err := json.Unmarshal(raw, &hours); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrSettings, f.hours, err)
		}
		if m, ok := obj[f.minutes]; ok {
			if err := json.Unmarshal(m, &minutes); err != nil {
				return nil, fmt.Errorf("%w: %s: %w", ErrSettings, f.minutes, err)
			}
		}
		delete(obj, f.hours)
		if minutes == 0 && hours > 0 {
			obj[f.minutes] = json.RawMessage(fmt.Sprint(hours * 60))
		}
	}
	obj["version"] = json.RawMessage("1")
	return json.Marshal(obj)
}

// truncate is the start of bad settings, for an error.
func truncate(v []byte) []byte {
	if len(v) > 40 {
		return v[:40]
	}
	return v
}
