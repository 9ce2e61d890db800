package ratelimit

import (
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// DefaultPurgeInterval is how often idle buckets are deleted. A row exists
// only for a (merchant, mode) that was limited, so the table never holds
// more than two rows per merchant; the purge only keeps it to the recently
// active ones.
const DefaultPurgeInterval = time.Hour

// purgeIdleFor is how long a bucket must have been full before its row is
// deleted. A full bucket and a missing row behave the same; the margin keeps
// a purging process whose clock runs ahead from deleting a row another
// process still sees booked.
const purgeIdleFor = time.Minute

// purgeSQL deletes up to $2 buckets that have been full since $1. It
// touches every merchant's rows: housekeeping applies to all alike. Rows a
// lease holds right now are skipped (SKIP LOCKED), not waited for.
const purgeSQL = `
DELETE FROM rate_limit_buckets
WHERE (merchant_id, livemode, budget) IN (
    SELECT merchant_id, livemode, budget
    FROM rate_limit_buckets
    WHERE tat_us < $1
    LIMIT $2
    FOR UPDATE SKIP LOCKED
)`

// PurgeArgs is the (empty) argument of the job that deletes idle buckets.
type PurgeArgs struct{}

// Kind names the job in river_job.
func (PurgeArgs) Kind() string { return "purge_rate_limit_buckets" }

// InsertOpts keeps a failing purge from retrying for days: the next
// periodic run does the same work.
func (PurgeArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 3} }

// PurgeWorker deletes the rows of buckets that have been full for a while,
// by the injected clock.
type PurgeWorker = jobs.Purge[PurgeArgs]

// NewPurgeWorker returns the worker.
func NewPurgeWorker(db *store.DB, clk clock.Clock) *PurgeWorker {
	return &PurgeWorker{Pool: db.Pool, Clock: clk, What: "rate limit buckets", SQL: purgeSQL,
		Cutoff: func(now time.Time) any { return now.Add(-purgeIdleFor).UnixMicro() }, Batch: jobs.PurgeBatchSize}
}

// AddPurgeJob registers the purge worker in workers and returns its periodic
// job, for jobs.Config (Workers, PeriodicJobs). every <= 0 means
// DefaultPurgeInterval. River's leader enqueues it, so it runs once per
// interval across all processes, and once when a process becomes leader.
func AddPurgeJob(workers *river.Workers, db *store.DB, clk clock.Clock, every time.Duration) (*river.PeriodicJob, error) {
	if every <= 0 {
		every = DefaultPurgeInterval
	}
	if err := river.AddWorkerSafely(workers, NewPurgeWorker(db, clk)); err != nil {
		return nil, fmt.Errorf("ratelimit: register purge worker: %w", err)
	}
	return jobs.Every(every, PurgeArgs{}), nil
}
