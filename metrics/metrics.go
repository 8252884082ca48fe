// Package metrics serves the daemon's figures to Prometheus: the mails it received, answered,
// parked, rejected, dropped and saw refused, its outbox, its handling latency, its deadlines,
// its games and the health of its mailbox and of its sending.
package metrics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"navarch/host"
)

// Metrics counts what the daemon does with mail (it is the host's Observer) and reads the
// rest of the figures from the host when scraped. It keeps its own registry: no globals.
type Metrics struct {
	reg      *prometheus.Registry
	received prometheus.Counter
	failed   prometheus.Counter
	parked   prometheus.Counter
	answered *prometheus.CounterVec
	refused  *prometheus.CounterVec
	rejected *prometheus.CounterVec
	latency  prometheus.Histogram
	figures  func() (host.Figures, error)
	health   func() host.Health // nil: no health figures (WatchHealth)
	now      func() time.Time
	log      *slog.Logger

	mu   sync.Mutex
	seen map[uint64]time.Time // when each queued mail was first seen in the outbox
}

// The gauges read at each scrape.
var (
	outboxDepth  = prometheus.NewDesc("navarch_outbox_depth", "Mails queued and not yet taken by the SMTP server.", nil, nil)
	outboxAge    = prometheus.NewDesc("navarch_outbox_oldest_age_seconds", "How long the oldest queued mail has waited, as this daemon saw it (0: the outbox is empty).", nil, nil)
	deadlines    = prometheus.NewDesc("navarch_deadlines_pending", "Games whose clock runs: a step waits for orders and the game is not paused.", nil, nil)
	overdue      = prometheus.NewDesc("navarch_deadlines_overdue", "Games past their deadline that the deadline loop has not yet acted on.", nil, nil)
	games        = prometheus.NewDesc("navarch_games", "Games by state (joining, playing, paused, waiting for the referee, over).", []string{"state"}, nil)
	parkedNow    = prometheus.NewDesc("navarch_mails_parked_waiting", "Mails parked after our own failures and not yet retried with success (navarch parked).", nil, nil)
	dropped      = prometheus.NewDesc("navarch_mails_dropped_total", "Mails dropped unanswered (own mail, auto-replies, bounces, lists, unauthenticated bulk mail, over the rate, unreadable, copies of mail handled before), by reason; navarch dropped lists them.", []string{"reason"}, nil)
	beaconWait   = prometheus.NewDesc("navarch_beacon_steps_waiting", "Steps of beacon games whose round is due but could not be fetched from the relays at the last pass: they wait for it.", nil, nil)
	figuresError = prometheus.NewDesc("navarch_figures_error", "1 when the database did not answer for the figures at this scrape.", nil, nil)
)

// New returns the metrics; figures reads the host's state at each scrape (host.Host.Figures).
func New(figures func() (host.Figures, error), log *slog.Logger) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), figures: figures, now: time.Now, log: log, seen: map[uint64]time.Time{},
		received: prometheus.NewCounter(prometheus.CounterOpts{Name: "navarch_mails_received_total", Help: "Mails taken from the mailbox and handled."}),
		failed:   prometheus.NewCounter(prometheus.CounterOpts{Name: "navarch_mails_failed_total", Help: "Handlings that failed (our fault; the mail is retried, then parked)."}),
		parked:   prometheus.NewCounter(prometheus.CounterOpts{Name: "navarch_mails_parked_total", Help: "Mails parked after our own failures."}),
		answered: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "navarch_mails_answered_total", Help: "Mails sent (taken by the SMTP server), by kind."}, []string{"kind"}),
		refused:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "navarch_mails_refused_total", Help: "Mails the SMTP server refused for good, by kind."}, []string{"kind"}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "navarch_mails_rejected_total",
			Help: "Incoming mails refused by authentication or the rate limit (nothing applied), by reason: dkim, key, forged, stranger, rate."}, []string{"reason"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "navarch_mail_handling_seconds", Help: "Time to handle one received mail (adjudication included).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}}),
	}
	for _, r := range host.RejectReasons {
		m.rejected.WithLabelValues(r)
	}
	m.reg.MustRegister(m.received, m.failed, m.parked, m.answered, m.refused, m.rejected, m.latency, gauges{m}, healthGauges{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Received implements host.Observer.
func (m *Metrics) Received() { m.received.Inc() }

// Handled implements host.Observer.
func (m *Metrics) Handled(took time.Duration, err error) {
	m.latency.Observe(took.Seconds())
	if err != nil {
		m.failed.Inc()
	}
}

// Parked implements host.Observer.
func (m *Metrics) Parked() { m.parked.Inc() }

// Sent implements host.Observer.
func (m *Metrics) Sent(kind string) { m.answered.WithLabelValues(kind).Inc() }

// Refused implements host.Observer.
func (m *Metrics) Refused(kind string) { m.refused.WithLabelValues(kind).Inc() }

// Rejected implements host.Observer.
func (m *Metrics) Rejected(reason string) { m.rejected.WithLabelValues(reason).Inc() }

// WatchHealth has each scrape report the health of the mailbox and of the sending
// (host.Host.Health); call it before serving.
func (m *Metrics) WatchHealth(health func() host.Health) { m.health = health }

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Serve answers GET /metrics on ln until ctx ends.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}

// oldest is the age of the oldest queued mail: each mail's age counts from the first scrape
// that saw it queued (the outbox keeps no time), so it is exact to a scrape interval.
func (m *Metrics) oldest(seqs []uint64) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	queued := make(map[uint64]time.Time, len(seqs))
	var age time.Duration
	for _, s := range seqs {
		t, ok := m.seen[s]
		if !ok {
			t = now
		}
		queued[s] = t
		age = max(age, now.Sub(t))
	}
	m.seen = queued // mails sent meanwhile are forgotten
	return age
}

// gauges reads the figures at each scrape.
type gauges struct{ m *Metrics }

func (g gauges) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{outboxDepth, outboxAge, deadlines, overdue, games, parkedNow, dropped, beaconWait, figuresError} {
		ch <- d
	}
}

func (g gauges) Collect(ch chan<- prometheus.Metric) {
	f, err := g.m.figures()
	if err != nil {
		g.m.log.Warn("metrics: the figures could not be read", "err", err)
		ch <- prometheus.MustNewConstMetric(figuresError, prometheus.GaugeValue, 1)
		return
	}
	ch <- prometheus.MustNewConstMetric(figuresError, prometheus.GaugeValue, 0)
	ch <- prometheus.MustNewConstMetric(outboxDepth, prometheus.GaugeValue, float64(f.OutboxDepth))
	ch <- prometheus.MustNewConstMetric(outboxAge, prometheus.GaugeValue, g.m.oldest(f.OutboxSeqs).Seconds())
	ch <- prometheus.MustNewConstMetric(deadlines, prometheus.GaugeValue, float64(f.Deadlines))
	ch <- prometheus.MustNewConstMetric(overdue, prometheus.GaugeValue, float64(f.Overdue))
	ch <- prometheus.MustNewConstMetric(parkedNow, prometheus.GaugeValue, float64(f.Parked))
	ch <- prometheus.MustNewConstMetric(beaconWait, prometheus.GaugeValue, float64(f.BeaconWaiting))
	for _, state := range host.GameStates {
		ch <- prometheus.MustNewConstMetric(games, prometheus.GaugeValue, float64(f.Games[state]), state)
	}
	for _, reason := range host.DropReasons {
		ch <- prometheus.MustNewConstMetric(dropped, prometheus.CounterValue, float64(f.Dropped[reason]), reason)
	}
	for reason, n := range f.Dropped { // a reason a newer host counts; the list above first
		if !slices.Contains(host.DropReasons, reason) {
			ch <- prometheus.MustNewConstMetric(dropped, prometheus.CounterValue, float64(n), reason)
		}
	}
}
