package jobs

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// CompleteTx marks the running job completed in the tenant transaction tx
// (a store.DB.Tx), from within its worker: the job ends if and only if tx
// commits, so a worker can decide, under the locks tx holds, that there
// is nothing more to do and end in the same transaction, leaving no
// moment in which it has looked for the last time but is still running
// (and so still refusing a duplicate of itself).
func CompleteTx[A river.JobArgs](ctx context.Context, tx *store.Tenant, job *river.Job[A]) error {
	return tx.PgxTx(ctx, func(ptx pgx.Tx) error {
		_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, ptx, job)
		return err
	})
}
