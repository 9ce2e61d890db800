package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/riverqueue/rivercontrib/otelriver"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// DefaultMaxWorkers is how many jobs one process works at once when Config
// leaves MaxWorkers unset.
const DefaultMaxWorkers = 10

// Config describes an Engine.
type Config struct {
	// Logger receives River's warnings and errors (info and below are
	// dropped). Nil means slog.Default().
	Logger *slog.Logger

	// Clock is the time the engine's own jobs act on (what has expired).
	// River schedules by the wall clock; jobs decide by this one.
	Clock clock.Clock

	// MaxWorkers is how many jobs this process works concurrently.
	// Zero means DefaultMaxWorkers.
	MaxWorkers int

	// IdempotencyPurgeInterval is how often expired idempotency keys are
	// purged. Zero means DefaultIdempotencyPurgeInterval. River advises
	// intervals of a second or more.
	IdempotencyPurgeInterval time.Duration

	// Workers holds the caller's workers, registered with
	// river.AddWorker(workers, w) before New; nil when there are none. New
	// adds the engine's own workers to it, so a bundle serves one Engine.
	Workers *river.Workers

	// Queues are the caller's own queues, by name, with how many of their
	// jobs this process works at once (beside the default queue's
	// MaxWorkers). A queue of its own keeps slow work, such as HTTP calls to
	// webhook receivers, from taking every worker.
	Queues map[string]int

	// PeriodicJobs are the caller's recurring jobs (river.NewPeriodicJob);
	// each one's worker must be in Workers. Only River's elected leader
	// enqueues them, so they run once per interval across all processes.
	PeriodicJobs []*river.PeriodicJob

	// PollOnly fetches jobs by polling instead of LISTEN notifications,
	// for a pool that goes through a transaction pooler (store.DB.Pooled),
	// where a session's LISTEN is lost.
	PollOnly bool
}

// Engine is the job engine of one server process: a River client on the
// store's pgx pool that works the default queue and enqueues periodic jobs.
type Engine struct {
	client *river.Client[pgx.Tx]
}

// New builds an Engine on pool (store.DB.Pool). It does not start working
// jobs; call Start. River's tables must exist first (Migrate).
func New(pool *pgxpool.Pool, cfg Config) (*Engine, error) {
	if pool == nil {
		return nil, errors.New("jobs: nil pool")
	}
	if cfg.Clock == nil {
		return nil, errors.New("jobs: Config.Clock is required")
	}
	maxWorkers := cfg.MaxWorkers
	if maxWorkers <= 0 {
		maxWorkers = DefaultMaxWorkers
	}
	purgeEvery := cfg.IdempotencyPurgeInterval
	if purgeEvery <= 0 {
		purgeEvery = DefaultIdempotencyPurgeInterval
	}
	workers := cfg.Workers
	if workers == nil {
		workers = river.NewWorkers()
	}
	if err := river.AddWorkerSafely(workers, NewPurgeIdempotencyKeysWorker(pool, cfg.Clock)); err != nil {
		return nil, fmt.Errorf("jobs: register purge worker: %w", err)
	}
	periodic := append([]*river.PeriodicJob{purgeIdempotencyKeysPeriodic(purgeEvery)}, cfg.PeriodicJobs...)

	queues := map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: maxWorkers}}
	for name, n := range cfg.Queues {
		queues[name] = river.QueueConfig{MaxWorkers: max(n, 1)}
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger:       quietLogger(cfg.Logger),
		Queues:       queues,
		Workers:      workers,
		PeriodicJobs: periodic,
		PollOnly:     cfg.PollOnly,
		// Jobs are spans (internal/platform/tracing): enqueued within a
		// request's trace, worked in a span linked back to it.
		Middleware: []rivertype.Middleware{otelriver.NewMiddleware(&otelriver.MiddlewareConfig{
			EnableTracePropagation: true, EnableWorkSpanJobKindSuffix: true})},
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: new river client: %w", err)
	}
	return &Engine{client: client}, nil
}

// AddPeriodicJobs adds recurring jobs beside Config.PeriodicJobs, for
// callers that know them only once the engine exists (the areas' jobs,
// whose services take the engine). Call it before Start; each job's worker
// must be in Config.Workers.
func (e *Engine) AddPeriodicJobs(periodic []*river.PeriodicJob) error {
	if _, err := e.client.PeriodicJobs().AddManySafely(periodic); err != nil {
		return fmt.Errorf("jobs: add periodic jobs: %w", err)
	}
	return nil
}

// Start begins fetching and working jobs in background goroutines and
// returns. Only Stop ends the engine: ctx supplies values to jobs but its
// cancellation is ignored, because River treats a cancelled start context as
// a hard stop that would cut running jobs short before a graceful Stop.
func (e *Engine) Start(ctx context.Context) error {
	if err := e.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	return nil
}

// Finished subscribes to the jobs the engine finishes from now on
// (completed, failed, snoozed or cancelled): the returned channel carries
// one event each, and cancel ends the subscription. Tests wait on it for a
// job to have run instead of polling against a deadline.
func (e *Engine) Finished() (events <-chan *river.Event, cancel func()) {
	return e.client.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobSnoozed,
		river.EventKindJobCancelled)
}

// Stop stops fetching new jobs and waits for running ones to finish. If ctx
// ends first, the running jobs' contexts are cancelled and Stop returns
// ctx's error without waiting further; a job cut short that way is retried
// later (River rescues stuck jobs). Stop on an engine never started returns
// nil.
func (e *Engine) Stop(ctx context.Context) error {
	err := e.client.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		_ = e.client.StopAndCancel(ctx) // ctx is done: cancels the jobs, returns at once
	}
	if err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}

// InsertTx enqueues a job in the caller's transaction: the job exists if and
// only if tx commits, so no work is lost between a commit and its job. The
// job's kind must have a worker registered in Config.Workers.
//
// tx is a pgx transaction on the same database (store.DB.Pool.Begin). A Bun
// transaction does not expose its pgx.Tx; code in Bun transactions writes an
// outbox row instead and lets a job pick it up (DESIGN.md, "Background
// work"). InsertTx may be called before Start and after Stop.
func (e *Engine) InsertTx(ctx context.Context, tx pgx.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	res, err := e.client.InsertTx(ctx, tx, args, opts)
	if err != nil {
		return nil, fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
	}
	return res, nil
}

// InsertManyTx enqueues many jobs in the caller's transaction in one
// statement, like InsertTx.
func (e *Engine) InsertManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	if _, err := e.client.InsertManyTx(ctx, tx, params); err != nil {
		return fmt.Errorf("jobs: insert %d jobs: %w", len(params), err)
	}
	return nil
}

// InsertOrWakeManyTx enqueues jobs that are unique (InsertOpts.UniqueOpts)
// in the caller's transaction, like InsertManyTx; a job skipped because
// its twin already waits for a later time is made available at once
// instead, so the new work that twin will find does not wait behind its
// schedule. A running twin is left alone: it must look for new work
// before it ends.
func (e *Engine) InsertOrWakeManyTx(ctx context.Context, tx pgx.Tx, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	res, err := e.client.InsertManyTx(ctx, tx, params)
	if err != nil {
		return fmt.Errorf("jobs: insert %d jobs: %w", len(params), err)
	}
	for _, r := range res {
		if !r.UniqueSkippedAsDuplicate || r.Job == nil {
			continue
		}
		if r.Job.State != rivertype.JobStateScheduled && r.Job.State != rivertype.JobStateRetryable {
			continue
		}
		if _, err := e.client.JobRetryTx(ctx, tx, r.Job.ID); err != nil {
			return fmt.Errorf("jobs: wake job %d: %w", r.Job.ID, err)
		}
	}
	return nil
}
