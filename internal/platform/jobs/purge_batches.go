package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// PurgeBatchSize bounds the rows one purge DELETE removes, so that each
// statement holds its row locks and writes its WAL briefly, and requests
// touching those rows never wait long behind the purge.
const PurgeBatchSize = 1000

// Purge is the worker of a housekeeping job A that deletes, across all
// tenants, the rows a cutoff has made garbage: SQL deletes at most $2
// rows past the cutoff $1, run in batches (PurgeInBatches). Time comes from
// Clock, never the wall clock, and is read once a run, so the loop ends
// even while new rows keep expiring.
type Purge[A river.JobArgs] struct {
	river.WorkerDefaults[A]

	Pool  *pgxpool.Pool
	Clock clock.Clock
	// What names the rows in an error ("idempotency keys").
	What string
	SQL  string
	// Cutoff turns the clock's now into the statement's $1.
	Cutoff func(now time.Time) any
	// Batch is the statement's $2 (PurgeBatchSize).
	Batch int
}

// Work purges what is garbage by the clock's now.
func (w *Purge[A]) Work(ctx context.Context, _ *river.Job[A]) error {
	return PurgeInBatches(ctx, w.Pool, w.What, w.SQL, w.Cutoff(w.Clock.Now()), w.Batch)
}

// PurgeInBatches runs a housekeeping DELETE of at most batch rows ($2)
// that cutoff ($1) has made garbage, again until a batch comes back short.
// Each statement commits on its own, so a run cut short (River's job
// timeout, a hard stop) keeps what it deleted and the next run continues;
// and each is short, so requests touching those rows never wait long
// behind it. what names the rows in an error.
func PurgeInBatches(ctx context.Context, pool *pgxpool.Pool, what, sql string, cutoff any, batch int) error {
	for {
		tag, err := pool.Exec(ctx, sql, cutoff, batch)
		if err != nil {
			return fmt.Errorf("purge %s: %w", what, err)
		}
		if tag.RowsAffected() < int64(batch) {
			return nil
		}
	}
}
