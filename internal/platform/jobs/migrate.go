package jobs

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// migrateLockKey is an arbitrary constant shared by every process that runs
// River's migrations. It differs from the application's migration lock
// (migrations.advisoryLockKey = 7_346_113_901) so the two never wait on each
// other by accident.
const migrateLockKey int64 = 7_346_113_902

// Migrate brings River's own tables (river_job, river_leader, …) up to the
// version this binary was built with. Run it after the application's
// migrations and before Engine.Start.
//
// River's migrations are applied with Migrate, one transaction per version:
// running them all in one transaction (MigrateTx) fails at version 6, which
// adds an enum value and uses it. Applying them is idempotent: versions
// already recorded in river_migration are skipped.
//
// Several processes may start at once, so Migrate holds a session advisory
// lock for the duration; a second process waits, then finds nothing to do.
// The lock is held on a connection of its own, outside the pool, because
// River's migrator takes its connections from the pool and a small pool
// (even MaxConns = 1) must not deadlock against the lock holder.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig)
	if err != nil {
		return fmt.Errorf("jobs: migrate: connect: %w", err)
	}
	// Closing the session releases its advisory lock as well.
	defer conn.Close(context.WithoutCancel(ctx)) //nolint:errcheck
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrateLockKey); err != nil {
		return fmt.Errorf("jobs: migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrateLockKey) //nolint:errcheck

	migrator, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{
		Logger: quietLogger(slog.Default()),
	})
	if err != nil {
		return fmt.Errorf("jobs: migrate: %w", err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("jobs: migrate: %w", err)
	}
	return nil
}
