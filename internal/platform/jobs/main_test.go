package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// openStore returns the store of a fresh, migrated database (application
// migrations only), opened the way the server opens it.
func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), testdb.NewDatabaseURL(t), 0)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	return db
}

// eventually polls cond until it holds or limit passes. The pause between
// polls only paces the loop; nothing is asserted about elapsed time.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
