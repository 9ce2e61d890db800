package jobs_test

import (
	"context"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
)

// requireRiverMigrated asserts that every River migration this binary knows
// is recorded as applied.
func requireRiverMigrated(t *testing.T, ctx context.Context, m *rivermigrate.Migrator[pgx.Tx]) {
	t.Helper()
	res, err := m.Validate(ctx, nil)
	require.NoError(t, err)
	require.True(t, res.OK, "unapplied River migrations: %v", res.Messages)
}

func TestMigrateTwice(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)

	require.NoError(t, jobs.Migrate(ctx, db.Pool))
	require.NoError(t, jobs.Migrate(ctx, db.Pool))

	m, err := rivermigrate.New(riverpgxv5.New(db.Pool), nil)
	require.NoError(t, err)
	requireRiverMigrated(t, ctx, m)
	applied, err := m.ExistingVersions(ctx)
	require.NoError(t, err)
	require.Len(t, applied, len(m.AllVersions()), "each version recorded once")
}

func TestMigrateConcurrently(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)

	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = jobs.Migrate(ctx, db.Pool) })
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}

	m, err := rivermigrate.New(riverpgxv5.New(db.Pool), nil)
	require.NoError(t, err)
	requireRiverMigrated(t, ctx, m)
}

func TestMigrateWithOneConnectionPool(t *testing.T) {
	// The advisory lock lives outside the pool, so even a pool of one
	// connection can migrate.
	ctx := context.Background()
	db := openStore(t)
	cfg := db.Pool.Config()
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(pool.Close)

	require.NoError(t, jobs.Migrate(ctx, pool))
}
