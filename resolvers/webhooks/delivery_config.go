package webhooks

import (
	"time"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
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
	// Workers is how many deliveries one process makes at once (4). Each
	// holds a database connection while its POST runs.
	Workers int
	// Destinations is where deliveries may connect, checked on the address
	// dialled (the zero value: public addresses only, in both modes). The
	// API checks endpoints at create against the same policy
	// (app.Options.WebhookDestinations).
	Destinations webhook.Destinations
	// PollInterval is how often the dispatcher looks for deliveries to
	// enqueue when no notification woke it (1 s).
	PollInterval time.Duration
	// OrderWait is how long a delivery waits while an earlier one to its
	// endpoint goes first (250 ms).
	OrderWait time.Duration
}

// Defaults of DeliveryConfig.
const (
	DefaultDeliveryTimeout = 10 * time.Second
	DefaultDeliveryWorkers = 4
	defaultPollInterval    = time.Second
	defaultOrderWait       = 250 * time.Millisecond
	// excerptLimit bounds the start of a receiver's answer that is kept.
	excerptLimit = 1024
	// errorLimit bounds a recorded transport error.
	errorLimit = 500
)

func (c DeliveryConfig) withDefaults() DeliveryConfig {
	if c.Schedule.MaxAttempts <= 0 {
		c.Schedule = webhook.DefaultSchedule
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultDeliveryTimeout
	}
	if c.Workers <= 0 {
		c.Workers = DefaultDeliveryWorkers
	}
	if c.PollInterval <= 0 {
		c.PollInterval = defaultPollInterval
	}
	if c.OrderWait <= 0 {
		c.OrderWait = defaultOrderWait
	}
	return c
}
