package testenv

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// FastDelivery is a delivery configuration for tests: retries a
// millisecond apart, four attempts, a short timeout, and sandbox
// deliveries to receivers on loopback allowed (as New allows them at
// create).
func FastDelivery() webhooks.DeliveryConfig {
	return webhooks.DeliveryConfig{Schedule: webhook.Schedule{MaxAttempts: 4, Base: time.Millisecond, Max: 10 * time.Millisecond},
		Timeout: 500 * time.Millisecond, PollInterval: 50 * time.Millisecond,
		ShareWait: 10 * time.Millisecond, Workers: 4, Destinations: webhook.Destinations{SandboxLocal: true}}
}

// StartDelivery runs webhook delivery for the Env's database as a server
// process does: River's tables migrated, a job engine working the
// delivery queue, and the dispatcher; stopped when the test ends. Each call
// starts another, independent set on its own connection pool, as a second
// server process on the same database would have.
func (e *Env) StartDelivery(cfg webhooks.DeliveryConfig) {
	t := e.T
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, e.URL, 8)
	if err != nil {
		t.Fatalf("testenv: open delivery pool: %v", err)
	}
	if err := jobs.Migrate(ctx, db.Pool); err != nil {
		t.Fatalf("testenv: migrate river: %v", err)
	}
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	d := webhooks.NewDelivery(db, secrets.NewSource(db, ""), e.Clock, logger, cfg)
	workers := river.NewWorkers()
	queues, err := d.Register(workers)
	if err != nil {
		t.Fatalf("testenv: %v", err)
	}
	engine, err := jobs.New(db.Pool, jobs.Config{Logger: logger, Clock: e.Clock, Workers: workers, Queues: queues})
	if err != nil {
		t.Fatalf("testenv: job engine: %v", err)
	}
	if err := engine.Start(ctx); err != nil {
		t.Fatalf("testenv: start jobs: %v", err)
	}
	disp := d.Dispatcher(engine)
	disp.Start(ctx)
	t.Cleanup(func() {
		disp.Stop()
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		_ = engine.Stop(sctx)
		db.Close()
	})
}
