package host

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A game's deadline policy (docs/DESIGN.md 3.1, 3.6): its time for orders and its reminder
// before the deadline, each its own (in minutes: store.Game) or the installation's; and the
// reminder may be off.

// deadline is a game's time for orders.
func (h *Host) deadline(g *game) time.Duration {
	switch {
	case g.DeadlineMinutes > 0:
		return time.Duration(g.DeadlineMinutes) * time.Minute
	}
	return time.Duration(h.cfg.DeadlineHours) * time.Hour
}

// reminder is how long before a deadline a game reminds its late players; 0: no reminder.
func (h *Host) reminder(g *game) time.Duration {
	switch {
	case g.NoReminder:
		return 0
	case g.ReminderMinutes > 0:
		return time.Duration(g.ReminderMinutes) * time.Minute
	}
	return time.Duration(h.cfg.ReminderHours) * time.Hour
}

// ParseSpan reads a deadline or reminder as an operator or game master writes it: a number
// of hours ("48"), or a duration in whole minutes ("90m", "1h30m", "2h"). With off allowed,
// "off" (or "0") turns the reminder off.
func ParseSpan(s string, off bool) (d time.Duration, isOff bool, err error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if off && (t == "off" || t == "0") {
		return 0, true, nil
	}
	if n, err := strconv.Atoi(t); err == nil {
		d = time.Duration(n) * time.Hour
	} else if d, err = time.ParseDuration(t); err != nil {
		return 0, false, fmt.Errorf("want hours (48) or a duration in minutes or hours (90m, 1h30m)%s, not %q", map[bool]string{true: ", or off"}[off], s)
	}
	if d < time.Minute || d%time.Minute != 0 || d > MaxDeadlineHours*time.Hour {
		return 0, false, fmt.Errorf("want 1m to %dh in whole minutes, not %q", MaxDeadlineHours, s)
	}
	return d, false, nil
}

// span says a time for players: "24 hours", "1 hour", "90 minutes".
func span(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "1 hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d == time.Minute:
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", d/time.Minute)
}

// short says a time for the operator: "24h", "90m".
func short(d time.Duration) string {
	if d%time.Hour == 0 {
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return fmt.Sprintf("%dm", d/time.Minute)
}

// specDeadline and specReminder are what a new game's spec gives (0: the installation's),
// and where each comes from, for a refusal that names what the operator wrote.
func (h *Host) specDeadline(spec GameSpec) (time.Duration, string) {
	switch {
	case spec.Deadline > 0:
		return spec.Deadline, "as given"
	case spec.DeadlineHours > 0:
		return time.Duration(spec.DeadlineHours) * time.Hour, "as given"
	}
	return time.Duration(h.cfg.DeadlineHours) * time.Hour, "the installation's deadline_hours"
}

func (h *Host) specReminder(spec GameSpec) (time.Duration, string) {
	switch {
	case spec.NoReminder:
		return 0, "off"
	case spec.Reminder > 0:
		return spec.Reminder, "as given"
	case spec.ReminderHours > 0:
		return time.Duration(spec.ReminderHours) * time.Hour, "as given"
	}
	return time.Duration(h.cfg.ReminderHours) * time.Hour, "the installation's reminder_hours"
}
