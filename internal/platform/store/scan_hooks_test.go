package store_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// hookedScans counts the rows Bun scanned into a hookedRow.
var hookedScans atomic.Int64

type hookedRow struct {
	bun.BaseModel `bun:"table:hooked_rows,alias:h"`
	ID            string `bun:"id,pk"`
}

func (*hookedRow) AfterScanRow(context.Context) error {
	hookedScans.Add(1)
	return nil
}

type plainRow struct {
	bun.BaseModel `bun:"table:plain_rows,alias:p"`
	ID            string `bun:"id,pk"`
}

// bunQueries counts the statements Bun sends: the reads SelectModels sends
// through pgx itself do not pass Bun's query hooks.
type bunQueries struct{ n atomic.Int64 }

func (b *bunQueries) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	b.n.Add(1)
	return ctx
}

func (*bunQueries) AfterQuery(context.Context, *bun.QueryEvent) {}

// A model with a hook Bun calls around each scanned row is read by Bun,
// which calls it; the direct read, which would skip the hook, is not used
// for it. A plain model is read straight from pgx.
func TestModelsWithScanHooksAreReadByBun(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 2)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	scope := store.Scope{MerchantID: uuid.New()}
	for _, table := range []string{"hooked_rows", "plain_rows"} {
		_, err := db.Pool.Exec(ctx, "CREATE TABLE "+table+" (id text PRIMARY KEY, merchant_id uuid NOT NULL, livemode bool NOT NULL)")
		require.NoError(t, err)
		_, err = db.Pool.Exec(ctx, "INSERT INTO "+table+" VALUES ('a', $1, false), ('b', $1, false)", scope.MerchantID)
		require.NoError(t, err)
	}
	queries := &bunQueries{}
	db.Bun.AddQueryHook(queries)
	tenant := db.Tenant(scope)

	hooked, err := store.SelectModels[hookedRow](ctx, tenant, tenant.Select((*hookedRow)(nil)))
	require.NoError(t, err)
	require.Len(t, hooked, 2)
	require.EqualValues(t, 2, hookedScans.Load(), "the scan hook ran for each row")
	require.EqualValues(t, 1, queries.n.Load(), "a model with a scan hook is read by Bun")

	plain, err := store.SelectModels[plainRow](ctx, tenant, tenant.Select((*plainRow)(nil)))
	require.NoError(t, err)
	require.Len(t, plain, 2)
	require.EqualValues(t, 1, queries.n.Load(), "a plain model is read straight from pgx")

	_, err = store.SelectModels[plainRow](store.WithBunScan(ctx), tenant, tenant.Select((*plainRow)(nil)))
	require.NoError(t, err)
	require.EqualValues(t, 2, queries.n.Load(), "the probe sees what Bun reads")
}
