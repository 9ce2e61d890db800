package jobs

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

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
