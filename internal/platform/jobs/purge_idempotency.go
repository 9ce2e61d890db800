package jobs

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// DefaultIdempotencyPurgeInterval is how often expired idempotency keys are
// purged when Config leaves the interval unset. Expired keys are already
// ignored (and replaced) by the idempotency layer, so the purge only bounds
// the table's size; hourly is plenty.
const DefaultIdempotencyPurgeInterval = time.Hour

// purgeExpiredIdempotencyKeysSQL deletes up to $2 rows whose expiry is at or
// before $1.
//
// The statement is deliberately not scoped to a merchant: idempotency_keys
// is keyed by merchant, and housekeeping of expired rows applies to every
// merchant alike, so this is the one place that touches all tenants' keys.
// Rows a request is replacing right now are skipped (SKIP LOCKED) rather than
// waited for; a later batch or run picks up whatever remains expired.
const purgeExpiredIdempotencyKeysSQL = `
DELETE FROM idempotency_keys
WHERE (merchant_id, livemode, credential, key) IN (
    SELECT merchant_id, livemode, credential, key
    FROM idempotency_keys
    WHERE expires <= $1
    LIMIT $2
    FOR UPDATE SKIP LOCKED
)`

// PurgeIdempotencyKeysArgs is the (empty) argument of the job that purges
// expired idempotency keys; the job decides what is expired when it runs.
type PurgeIdempotencyKeysArgs struct{}

// Kind names the job in river_job.
func (PurgeIdempotencyKeysArgs) Kind() string { return "purge_idempotency_keys" }

// InsertOpts keeps a failing purge from retrying for days (River's default is
// 25 attempts): the next periodic run does the same work anyway.
func (PurgeIdempotencyKeysArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 3}
}

// PurgeIdempotencyKeysWorker deletes idempotency keys that have expired by
// the injected clock's now.
type PurgeIdempotencyKeysWorker = Purge[PurgeIdempotencyKeysArgs]

// NewPurgeIdempotencyKeysWorker returns the worker. Time comes from clk, never
// the wall clock, so tests (and test clocks) decide what has expired.
func NewPurgeIdempotencyKeysWorker(pool *pgxpool.Pool, clk clock.Clock) *PurgeIdempotencyKeysWorker {
	return &PurgeIdempotencyKeysWorker{Pool: pool, Clock: clk, What: "idempotency keys", SQL: purgeExpiredIdempotencyKeysSQL,
		Cutoff: func(now time.Time) any { return now }, Batch: PurgeBatchSize}
}

// purgeIdempotencyKeysPeriodic schedules the purge every interval
// (Every).
func purgeIdempotencyKeysPeriodic(interval time.Duration) *river.PeriodicJob {
	return Every(interval, PurgeIdempotencyKeysArgs{})
}
