package jobs_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
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

// eventually waits until cond holds (poll.Until: no deadline of its own,
// so nothing is asserted about elapsed time).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	poll.Until(t, what, cond)
}
