package store_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/models"
)

var accountByIDForTest = store.NewPreparedSelect((*models.Account)(nil), func(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Where("a.id = $3")
})

var accountsForTest = store.NewPreparedSelect((*models.Account)(nil), func(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Order("a.id")
})

// A prepared read sees only its tenant's rows, in and out of transactions,
// and is prepared once per connection and then reused.
func TestPreparedReadsAreScopedAndPrepared(t *testing.T) {
	f := setup(t)
	var got models.Account
	require.NoError(t, f.db.Tenant(f.a).ScanPreparedRow(f.ctx, accountByIDForTest, &got, f.acctA.ID))
	require.Equal(t, f.acctA.ID, got.ID)
	require.Equal(t, f.acctA.Created.Unix(), got.Created.Unix())

	for name, s := range map[string]store.Scope{"another merchant": f.b, "another mode": f.aLive} {
		err := f.db.Tenant(s).ScanPreparedRow(f.ctx, accountByIDForTest, &got, f.acctA.ID)
		require.True(t, store.IsNoRows(err), "%s: %v", name, err)
	}

	f.account(t, f.a)
	f.account(t, f.b)
	var page []*models.Account
	require.NoError(t, f.db.Tx(f.ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
		return tx.ScanPrepared(ctx, accountsForTest, &page)
	}))
	require.Len(t, page, 2)
	for _, a := range page {
		require.Equal(t, f.a.MerchantID, a.MerchantID)
	}

}

// Each connection prepares a read once and then only binds arguments.
func TestPreparedReadIsPreparedOncePerConnection(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 1) // one connection: every statement below shares it
	require.NoError(t, err)
	t.Cleanup(db.Close)
	tenant := db.Tenant(store.Scope{MerchantID: uuid.New()})
	prepared := func() (n int) {
		require.NoError(t, db.Bun.NewRaw("SELECT count(*) FROM pg_prepared_statements WHERE statement = ?",
			accountByIDForTest.SQL()).Scan(ctx, &n))
		return n
	}
	require.Equal(t, 0, prepared())
	for range 3 {
		var a models.Account
		require.True(t, store.IsNoRows(tenant.ScanPreparedRow(ctx, accountByIDForTest, &a, uuid.New())))
	}
	require.Equal(t, 1, prepared())
}

func TestPreparedReadMustNameTheScope(t *testing.T) {
	require.Panics(t, func() { store.NewPreparedRead("SELECT * FROM accounts AS a WHERE a.id = $1") })
	require.Panics(t, func() { store.NewPreparedRead("SELECT * FROM accounts AS a WHERE a.merchant_id = $1") })
	require.NotPanics(t, func() {
		store.NewPreparedRead("SELECT * FROM accounts AS a WHERE a.merchant_id = $1 AND a.livemode = $2")
	})
}
