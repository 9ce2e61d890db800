package store_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Finding 11a: a process attached to the embedded PostgreSQL another
// process owns (a second `serve`, a CLI command) keeps working when the
// owner restarts PostgreSQL, which comes back on another port.
func TestPoolFollowsTheClusterAcrossRestarts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Not t.TempDir(): as root PostgreSQL runs as the postgres user, which
	// cannot traverse t.TempDir's 0700 root-owned parent. Where the test
	// clusters are (tmpfs when it has room): this one runs with fsync on.
	parent, err := pgembed.TempDir("store-follow-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(parent, 0o755))
	t.Cleanup(func() { _ = os.RemoveAll(parent) })
	dataDir := filepath.Join(parent, "data")

	owner, err := pgembed.Start(ctx, pgembed.Options{DataDir: dataDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = owner.Stop() })
	attached, err := pgembed.Start(ctx, pgembed.Options{DataDir: dataDir})
	require.NoError(t, err)
	require.False(t, attached.Owned())

	db, err := store.Open(ctx, attached.URL("postgres"), 2, store.WithConnTarget(attached.Retarget))
	require.NoError(t, err)
	t.Cleanup(db.Close)
	query := func() error {
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		var n int
		if err := db.Pool.QueryRow(qctx, "SELECT 1").Scan(&n); err != nil {
			return err
		}
		return db.Bun.QueryRowContext(qctx, "SELECT 1").Scan(&n)
	}
	require.NoError(t, query())

	// The owner stops its server: every query fails as an outage.
	oldPort := owner.Port()
	require.NoError(t, owner.Stop())
	for range 3 {
		err := query()
		require.Error(t, err)
		require.True(t, store.IsUnavailable(err), "not classified as an outage: %v", err)
	}

	// It starts it again; holding the old port makes it listen elsewhere.
	hold, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(oldPort)))
	require.NoError(t, err)
	restarted, err := pgembed.Start(ctx, pgembed.Options{DataDir: dataDir})
	require.NoError(t, hold.Close())
	require.NoError(t, err)
	t.Cleanup(func() { _ = restarted.Stop() })
	require.True(t, restarted.Owned())
	require.NotEqual(t, oldPort, restarted.Port())

	// The same pool reaches it: connections broken by the restart fail at
	// most once each, then new ones go to the new port.
	for range 10 {
		if err = query(); err == nil {
			break
		}
		require.True(t, store.IsUnavailable(err), "not classified as an outage: %v", err)
	}
	require.NoError(t, err, "the pool did not follow the restarted server")
}
