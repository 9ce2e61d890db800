package webhooks

import (
	"time"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// Queue is the River queue deliveries run in: a queue of their own, so
// slow receivers never take the workers other jobs need.
const Queue = "webhooks"

// DeliveryConfig tunes delivery; zero values take the defaults.
type DeliveryConfig struct {
	// Schedule is the retry policy (webhook.DefaultSchedule).
	Schedule webhook.Schedule
	// Timeout bounds one attempt, connection to last byte read (10 s).
	Timeout time.Duration
	// ConnectTimeout bounds the TCP connection and the TLS handshake of an
	// attempt (3 s, never more than Timeout): a receiver that is down or
	// drops packets fails fast instead of holding a worker for the whole
	// Timeout.
	ConnectTimeout time.Duration
	// Workers is how many deliveries one process makes at once (4). Each
	// holds a database connection while its POST runs.
	Workers int
	// MerchantShare is how many deliveries of one merchant (both modes) are
	// in flight at once, across every server process (half of Workers,
	// at least 1): one merchant's slow or dead endpoints never hold every
	// worker, so other merchants' deliveries do not wait behind them.
	MerchantShare int
	// DisableAfter is how long an endpoint may fail every attempt before it
	// is disabled, from its first failure after its last success (3 days).
	DisableAfter time.Duration
	// Destinations is where deliveries may connect, checked on the address
	// dialled (the zero value: public addresses only, in both modes). The
	// API checks endpoints at create against the same policy
	// (app.Options.WebhookDestinations).
	Destinations webhook.Destinations
	// PollInterval is how often the dispatcher looks for deliveries to
	// enqueue when no notification woke it (1 s).
	PollInterval time.Duration
	// ShareWait is how long an endpoint's job waits before looking again
	// when its merchant's share of deliveries in flight is taken (250 ms).
	ShareWait time.Duration
}

// Defaults of DeliveryConfig.
const (
	DefaultDeliveryTimeout = 10 * time.Second
	DefaultDeliveryWorkers = 4
	DefaultConnectTimeout  = 3 * time.Second
	DefaultDisableAfter    = 72 * time.Hour
	defaultPollInterval    = time.Second
	defaultShareWait       = 250 * time.Millisecond
	// excerptLimit bounds the start of a receiver's answer that is kept.
	excerptLimit = 1024
	// errorLimit bounds a recorded transport error.
	errorLimit = 500
)

func (c DeliveryConfig) withDefaults() DeliveryConfig {
	if c.Schedule.MaxAttempts <= 0 {
		c.Schedule = webhook.DefaultSchedule
	}
	flagenv.Default(&c.Timeout, DefaultDeliveryTimeout)
	flagenv.Default(&c.ConnectTimeout, DefaultConnectTimeout)
	c.ConnectTimeout = min(c.ConnectTimeout, c.Timeout)
	flagenv.Default(&c.Workers, DefaultDeliveryWorkers)
	flagenv.Default(&c.MerchantShare, max(1, c.Workers/2))
	flagenv.Default(&c.DisableAfter, DefaultDisableAfter)
	flagenv.Default(&c.PollInterval, defaultPollInterval)
	flagenv.Default(&c.ShareWait, defaultShareWait)
	return c
}
