package migrations_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/migrations"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// Several server processes starting together against one database: the
// advisory lock lets one migrate while the others wait, and all succeed.
func TestConcurrentApplyIsSafe(t *testing.T) {
	t.Parallel()
	url := testdb.NewEmptyDatabaseURL(t)
	ctx := context.Background()
	const n = 4
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		db, err := store.Open(ctx, url, 2)
		require.NoError(t, err)
		t.Cleanup(db.Close)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = migrations.Apply(ctx, db.Bun)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	db, err := store.Open(ctx, url, 2)
	require.NoError(t, err)
	defer db.Close()
	pending, err := migrations.Pending(ctx, db.Bun)
	require.NoError(t, err)
	require.Zero(t, pending)
	require.NoError(t, migrations.Apply(ctx, db.Bun), "applying again is a no-op")
}

func TestHashIsStable(t *testing.T) {
	a, err := migrations.Hash()
	require.NoError(t, err)
	b, err := migrations.Hash()
	require.NoError(t, err)
	require.Equal(t, a, b)
	require.Len(t, a, 64)
}
