package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/models"
)

type fixture struct {
	db    *store.DB
	now   time.Time
	a, b  store.Scope // two merchants, sandbox
	aLive store.Scope // merchant a, production
	acctA *models.Account
	ctx   context.Context
}

func setup(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	clk := clock.NewManual(testdb.Start)
	ma, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "A"})
	require.NoError(t, err)
	mb, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "B"})
	require.NoError(t, err)
	f := &fixture{db: db, now: clk.Now(), ctx: ctx,
		a: store.Scope{MerchantID: ma.ID}, b: store.Scope{MerchantID: mb.ID},
		aLive: store.Scope{MerchantID: ma.ID, Livemode: true}}
	f.acctA = f.account(t, f.a)
	return f
}

func (f *fixture) account(t *testing.T, s store.Scope) *models.Account {
	t.Helper()
	a := &models.Account{ID: ids.New(f.now), Type: models.AccountTypeIndividual, Status: models.AccountStatusPending,
		RestrictedBy: []models.Restrictor{}, Metadata: models.Metadata{}, Created: models.At(f.now), Updated: models.At(f.now)}
	_, err := f.db.Tenant(s).Insert(a).Exec(f.ctx)
	require.NoError(t, err)
	return a
}

func (f *fixture) capabilityOf(accountID [16]byte) *models.Capability {
	return &models.Capability{ID: ids.New(f.now), AccountID: accountID, Name: capability.KYC,
		Status: capability.StatusPending, Created: models.ISOTime{Time: f.now}, Updated: models.ISOTime{Time: f.now}}
}

// The database itself refuses a row of merchant B that points at merchant
// A's account: the composite foreign key includes merchant_id.
func TestDatabaseRefusesCrossMerchantReference(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, err := f.db.Tenant(f.b).Insert(f.capabilityOf(f.acctA.ID)).Exec(f.ctx)
	require.Error(t, err)
	require.True(t, store.ForeignKeyViolation(err), "want a foreign key violation, got %v", err)

	_, err = f.db.Tenant(f.a).Insert(f.capabilityOf(f.acctA.ID)).Exec(f.ctx)
	require.NoError(t, err, "the same row in the account's own scope is accepted")
}

// Modes are separate worlds too: a production row cannot point at a
// sandbox account of the same merchant.
func TestDatabaseRefusesCrossModeReference(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, err := f.db.Tenant(f.aLive).Insert(f.capabilityOf(f.acctA.ID)).Exec(f.ctx)
	require.True(t, store.ForeignKeyViolation(err), "want a foreign key violation, got %v", err)
}

// Queries started from a Tenant see only that tenant's rows, for select,
// update and delete alike.
func TestTenantQueriesAreScoped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.account(t, f.b)
	f.account(t, f.aLive)

	for _, s := range []store.Scope{f.a, f.b, f.aLive} {
		var rows []models.Account
		require.NoError(t, f.db.Tenant(s).Select(&rows).Scan(f.ctx))
		require.Len(t, rows, 1)
		require.Equal(t, s.MerchantID, rows[0].MerchantID)
		require.Equal(t, s.Livemode, rows[0].Livemode)
	}

	res, err := f.db.Tenant(f.b).Update((*models.Account)(nil)).Set("status = 'active'").
		Where("id = ?", f.acctA.ID).Exec(f.ctx)
	require.NoError(t, err)
	n, _ := res.RowsAffected()
	require.Zero(t, n, "merchant B cannot update merchant A's account")

	res, err = f.db.Tenant(f.aLive).Delete((*models.Account)(nil)).Where("id = ?", f.acctA.ID).Exec(f.ctx)
	require.NoError(t, err)
	n, _ = res.RowsAffected()
	require.Zero(t, n, "production scope cannot delete a sandbox account")
}

// Insert stamps the scope on the row, whatever the row said.
func TestInsertStampsScope(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := &models.Account{ID: ids.New(f.now), Type: models.AccountTypeBusiness, Status: models.AccountStatusPending,
		RestrictedBy: []models.Restrictor{}, Created: models.At(f.now), Updated: models.At(f.now)}
	a.MerchantID, a.Livemode = f.b.MerchantID, true
	_, err := f.db.Tenant(f.a).Insert(a).Exec(f.ctx)
	require.NoError(t, err)
	require.Equal(t, f.a.MerchantID, a.MerchantID)
	require.False(t, a.Livemode)
}

// Statements are counted per context, without BEGIN/COMMIT.
func TestStatementCounter(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, n := store.WithStatementCounter(f.ctx)
	require.NoError(t, f.db.Tx(ctx, f.a, func(ctx context.Context, tx *store.Tenant) error {
		var rows []models.Account
		if err := tx.Select(&rows).Scan(ctx); err != nil {
			return err
		}
		return tx.Select(&rows).Scan(ctx)
	}))
	require.EqualValues(t, 2, n.Load())
}
