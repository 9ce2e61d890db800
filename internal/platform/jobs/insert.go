package jobs

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Enqueue inserts a job in the tenant transaction tx (a store.DB.Tx): the
// job exists if and only if tx commits, together with the rows it will act
// on (the transactional-outbox rule of DESIGN.md, "Background work").
func (e *Engine) Enqueue(ctx context.Context, tx *store.Tenant, args river.JobArgs, opts *river.InsertOpts) error {
	return tx.PgxTx(ctx, func(ptx pgx.Tx) error {
		_, err := e.InsertTx(ctx, ptx, args, opts)
		return err
	})
}

// SchemaVersion names the job engine's schema this binary expects (River's
// module version): test databases built from a template keyed by it are
// rebuilt when River is upgraded.
func SchemaVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/riverqueue/river" {
				return fmt.Sprintf("river %s", m.Version)
			}
		}
	}
	return "river"
}
