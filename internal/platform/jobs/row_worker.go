package jobs

import (
	"context"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// RowArgs are the args of a job that works on one row of one tenant: they
// tell which. Each args type keeps its own JSON field names, so jobs that
// wait in river_job still decode after an upgrade.
type RowArgs interface {
	river.JobArgs
	Row() (store.Scope, uuid.UUID)
}

// RowWorker hands a row's job to Do, the operation that settles the row.
// River retries it with backoff when Do fails (the database, most often),
// so Do leaves alone a row it already dealt with: a job that runs twice
// changes nothing.
type RowWorker[A RowArgs] struct {
	river.WorkerDefaults[A]
	Do func(ctx context.Context, scope store.Scope, id uuid.UUID) error
}

// Work runs Do for the job's row.
func (w *RowWorker[A]) Work(ctx context.Context, job *river.Job[A]) error {
	scope, id := job.Args.Row()
	return w.Do(ctx, scope, id)
}
