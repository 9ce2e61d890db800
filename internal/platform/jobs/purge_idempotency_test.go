package jobs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// insertMerchant adds a merchant row for idempotency keys to belong to.
func insertMerchant(t *testing.T, db *store.DB, at time.Time) uuid.UUID {
	t.Helper()
	id := uuid.New()
	_, err := db.Pool.Exec(context.Background(),
		`INSERT INTO merchants (id, name, products, disabled_capabilities, created, updated)
		 VALUES ($1, 'Purge Test', '{}', '{}', $2, $2)`, id, at)
	require.NoError(t, err)
	return id
}

// insertKeys adds n idempotency keys of merchant expiring at expires; prefix
// keeps their names distinct.
func insertKeys(t *testing.T, db *store.DB, merchant uuid.UUID, prefix string, n int, expires time.Time) {
	t.Helper()
	for i := range n {
		_, err := db.Pool.Exec(context.Background(),
			`INSERT INTO idempotency_keys
			   (merchant_id, livemode, credential, key, operation, fingerprint, result, created, expires)
			 VALUES ($1, false, 'secret_key', $2, 'createAccount', '\x00', '\x7b7d', $3, $4)`,
			merchant, fmt.Sprintf("%s-%d", prefix, i), expires.Add(-24*time.Hour), expires)
		require.NoError(t, err)
	}
}

// countKeys counts idempotency keys whose key starts with prefix.
func countKeys(t *testing.T, db *store.DB, prefix string) int {
	t.Helper()
	var n int
	err := db.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM idempotency_keys WHERE starts_with(key, $1)`, prefix).Scan(&n)
	require.NoError(t, err)
	return n
}

func TestPurgeIdempotencyKeysDeletesExactlyTheExpired(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	clk := clock.NewManual(testdb.Start)
	now := clk.Now()
	m1, m2 := insertMerchant(t, db, now), insertMerchant(t, db, now)

	insertKeys(t, db, m1, "old", 3, now.Add(-time.Hour))
	insertKeys(t, db, m2, "old2", 2, now.Add(-time.Microsecond))
	insertKeys(t, db, m1, "edge", 2, now) // at now counts as expired
	insertKeys(t, db, m1, "live", 4, now.Add(time.Microsecond))
	insertKeys(t, db, m2, "live2", 1, now.Add(24*time.Hour))

	w := jobs.NewPurgeIdempotencyKeysWorker(db.Pool, clk)
	require.NoError(t, w.Work(ctx, &river.Job[jobs.PurgeIdempotencyKeysArgs]{}))

	require.Zero(t, countKeys(t, db, "old"), "expired keys of both merchants are purged")
	require.Zero(t, countKeys(t, db, "edge"), "keys expiring exactly now are purged")
	require.Equal(t, 4, countKeys(t, db, "live-"))
	require.Equal(t, 1, countKeys(t, db, "live2"))

	// Time, not the wall clock, decides: moving the clock expires the rest.
	clk.Advance(24 * time.Hour)
	require.NoError(t, w.Work(ctx, &river.Job[jobs.PurgeIdempotencyKeysArgs]{}))
	require.Zero(t, countKeys(t, db, ""))
}

func TestPurgeIdempotencyKeysLoopsOverBatches(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	clk := clock.NewManual(testdb.Start)
	now := clk.Now()
	m := insertMerchant(t, db, now)
	insertKeys(t, db, m, "old", 7, now.Add(-time.Minute))
	insertKeys(t, db, m, "live", 3, now.Add(time.Minute))

	w := jobs.NewPurgeIdempotencyKeysWorker(db.Pool, clk)
	w.Batch = 2 // 7 expired rows: batches of 2, 2, 2, 1
	require.NoError(t, w.Work(ctx, &river.Job[jobs.PurgeIdempotencyKeysArgs]{}))

	require.Zero(t, countKeys(t, db, "old"))
	require.Equal(t, 3, countKeys(t, db, "live"))
}

func TestPurgeIdempotencyKeysWithNothingToDo(t *testing.T) {
	db := openStore(t)
	w := jobs.NewPurgeIdempotencyKeysWorker(db.Pool, clock.NewManual(testdb.Start))
	require.NoError(t, w.Work(context.Background(), &river.Job[jobs.PurgeIdempotencyKeysArgs]{}))
}
