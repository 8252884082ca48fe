package metrics

import (
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"navarch/mail"
)

// The health figures of each connection ("intake": the IMAP mailbox; "send": the SMTP
// outbox), read at each scrape.
type healthDescs struct {
	age, failing, failures, err *prometheus.Desc
}

func newHealthDescs(name, what string) healthDescs {
	return healthDescs{
		age:      prometheus.NewDesc("navarch_"+name+"_last_success_age_seconds", "Seconds since the last successful "+what+" (absent before the first).", nil, nil),
		failing:  prometheus.NewDesc("navarch_"+name+"_failing_seconds", "Seconds since the "+what+" started failing, 0 while it works (navarch health fails past its threshold).", nil, nil),
		failures: prometheus.NewDesc("navarch_"+name+"_failures_total", "Failed "+what+"s since the daemon started, by kind: auth and tls are the operator's to fix.", []string{"kind"}, nil),
		err:      prometheus.NewDesc("navarch_"+name+"_error", "1, while the "+what+" fails, labelled with the latest failure and its kind.", []string{"kind", "error"}, nil),
	}
}

var (
	intakeHealth = newHealthDescs("intake", "IMAP poll")
	sendHealth   = newHealthDescs("send", "SMTP send")
)

// healthGauges reads the host's health at each scrape.
type healthGauges struct{ m *Metrics }

func (g healthGauges) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []healthDescs{intakeHealth, sendHealth} {
		ch <- d.age
		ch <- d.failing
		ch <- d.failures
		ch <- d.err
	}
}

func (g healthGauges) Collect(ch chan<- prometheus.Metric) {
	if g.m.health == nil {
		return
	}
	h := g.m.health()
	g.one(ch, intakeHealth, h.Intake)
	g.one(ch, sendHealth, h.Send)
}

func (g healthGauges) one(ch chan<- prometheus.Metric, d healthDescs, s mail.HealthStatus) {
	now := g.m.now()
	if !s.LastOK.IsZero() {
		ch <- prometheus.MustNewConstMetric(d.age, prometheus.GaugeValue, now.Sub(s.LastOK).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(d.failing, prometheus.GaugeValue, s.Failing(now).Seconds())
	kinds := slices.Clone(mail.Kinds)
	for k := range s.Failures {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	for _, k := range kinds {
		ch <- prometheus.MustNewConstMetric(d.failures, prometheus.CounterValue, float64(s.Failures[k]), k)
	}
	if !s.FailingSince.IsZero() {
		ch <- prometheus.MustNewConstMetric(d.err, prometheus.GaugeValue, 1, s.Kind, label(s.Err))
	}
}

// label is a server's error text as a label value: valid UTF-8 (a server may answer
// anything), at most 300 bytes.
func label(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "…"
	}
	return s
}
