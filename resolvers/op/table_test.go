package op_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// The kit is tested on two landed tables: accounts and their capabilities
// (a child table naming its parent).
var (
	accountTable    = &op.Table[models.Account]{Resource: "account"}
	capabilityTable = &op.Table[models.Capability]{Resource: "capability",
		Derive: func(c *models.Capability, _ time.Time) { c.CurrentlyDue = []string{"derived"} }}
	capabilitiesOfAccounts = &op.Children[models.Capability]{Table: capabilityTable, Parent: "account", Column: "account_id", Limit: 2}
)

type capabilityFilter struct {
	Status  *string `query:"status" filter:"status,enum=pending|active|disabled"`
	Account *string `query:"account" filter:"account_id,id"`
	Name    *string `query:"name" filter:"name"`
}

type kitFixture struct {
	kit       *op.Kit
	clk       *clock.Manual
	mine      store.Scope
	other     store.Scope
	ctx       context.Context // the secret key of mine
	a, b      *models.Account
	caps      []*models.Capability // of a, oldest first
	otherAcct *models.Account
}

func setupKit(t *testing.T) *kitFixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 4)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	clk := clock.NewManual(testdb.Start)
	m1, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "Mine"})
	require.NoError(t, err)
	m2, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "Other"})
	require.NoError(t, err)
	f := &kitFixture{kit: &op.Kit{DB: db, Clock: clk, Secret: secrets.NewSource(db, "")}, clk: clk,
		mine: store.Scope{MerchantID: m1.ID}, other: store.Scope{MerchantID: m2.ID}}
	f.ctx = f.as(auth.SecretKey, f.mine)
	f.a, f.b = f.account(t, f.mine), f.account(t, f.mine)
	f.otherAcct = f.account(t, f.other)
	for _, name := range []capability.Name{capability.KYC, capability.IDV, capability.KYB} {
		f.caps = append(f.caps, f.capability(t, f.mine, f.a.ID, name))
	}
	f.capability(t, f.other, f.otherAcct.ID, capability.KYC)
	return f
}

func (f *kitFixture) as(kind auth.Kind, s store.Scope) context.Context {
	return auth.WithPrincipal(context.Background(), &auth.Principal{Kind: kind, Scope: s})
}

func (f *kitFixture) account(t *testing.T, s store.Scope) *models.Account {
	t.Helper()
	f.clk.Advance(time.Second)
	now := f.clk.Now()
	a := &models.Account{ID: ids.New(now), Type: models.AccountTypeIndividual, Status: models.AccountStatusPending,
		RestrictedBy: []models.Restrictor{}, Metadata: models.Metadata{}, Created: models.At(now), Updated: models.At(now)}
	_, err := f.kit.DB.Tenant(s).Insert(a).Exec(context.Background())
	require.NoError(t, err)
	return a
}

func (f *kitFixture) capability(t *testing.T, s store.Scope, account uuid.UUID, name capability.Name) *models.Capability {
	t.Helper()
	f.clk.Advance(time.Second)
	now := f.clk.Now()
	c := &models.Capability{ID: ids.New(now), AccountID: account, Name: name, Status: capability.StatusPending,
		Created: models.ISOTime{Time: now}, Updated: models.ISOTime{Time: now}}
	_, err := f.kit.DB.Tenant(s).Insert(c).Exec(context.Background())
	require.NoError(t, err)
	return c
}

func requireAPIError(t *testing.T, err error, status int, code string) *apierr.Error {
	t.Helper()
	var e *apierr.Error
	require.True(t, errors.As(err, &e), "%v", err)
	require.Equal(t, status, e.Status, e.Message)
	require.Equal(t, code, e.Code)
	return e
}

func TestTableGetAnswersOnlyTheCallersTenant(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	got, err := accountTable.Get(f.ctx, f.kit, f.a.ID.String())
	require.NoError(t, err)
	require.Equal(t, f.a.ID, got.ID)

	// Another merchant's, a malformed and an unknown id answer alike.
	for _, id := range []string{f.otherAcct.ID.String(), "not-an-id", ids.New(f.clk.Now()).String()} {
		_, err := accountTable.Get(f.ctx, f.kit, id)
		requireAPIError(t, err, http.StatusNotFound, apierr.CodeResourceMissing)
	}
	_, err = accountTable.Get(f.as(auth.SecretKey, store.Scope{MerchantID: f.mine.MerchantID, Livemode: true}), f.kit, f.a.ID.String())
	requireAPIError(t, err, http.StatusNotFound, apierr.CodeResourceMissing)
	_, err = accountTable.Get(f.as(auth.PublishableKey, f.mine), f.kit, f.a.ID.String())
	requireAPIError(t, err, http.StatusForbidden, apierr.CodeForbidden)

	c, err := capabilityTable.Get(f.ctx, f.kit, f.caps[0].ID.String())
	require.NoError(t, err)
	require.Equal(t, []string{"derived"}, c.CurrentlyDue, "Derive completes every row read")
}

func TestTableByIDsAnswersEachIDInOrderInOneStatement(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	ctx, n := store.WithStatementCounter(f.ctx)
	want := []string{f.b.ID.String(), "bad", f.otherAcct.ID.String(), f.a.ID.String()}
	rows, errs := accountTable.ByIDs(ctx, f.kit, want)
	require.Equal(t, int64(1), n.Load())
	require.Equal(t, f.b.ID, rows[0].ID)
	require.Equal(t, f.a.ID, rows[3].ID)
	require.NoError(t, errs[0])
	require.NoError(t, errs[3])
	requireAPIError(t, errs[1], http.StatusNotFound, apierr.CodeResourceMissing)
	requireAPIError(t, errs[2], http.StatusNotFound, apierr.CodeResourceMissing)
}

func TestTableListFiltersPagesAndReportsEveryProblem(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	page, err := capabilityTable.List(f.ctx, f.kit, capabilityFilter{}, op.ListParams{PageParams: models.PageParams{PerPage: 2}})
	require.NoError(t, err)
	require.True(t, page.HasMore)
	require.Equal(t, []uuid.UUID{f.caps[2].ID, f.caps[1].ID}, []uuid.UUID{page.Items[0].ID, page.Items[1].ID}, "newest first")

	kyc, acct := string(capability.KYC), f.a.ID.String()
	page, err = capabilityTable.List(f.ctx, f.kit, &capabilityFilter{Account: &acct, Name: &kyc}, op.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	require.Equal(t, f.caps[0].ID, page.Items[0].ID)

	bad, badID := "sleeping", "nope"
	_, err = capabilityTable.List(f.ctx, f.kit, capabilityFilter{Status: &bad, Account: &badID}, op.ListParams{})
	e := requireAPIError(t, err, http.StatusUnprocessableEntity, apierr.CodeValidation)
	require.Contains(t, e.Fields, "status")
	require.Contains(t, e.Fields, "account")

	first := 2
	keyset, err := capabilityTable.List(f.ctx, f.kit, nil, op.ListParams{Keyset: true, First: &first})
	require.NoError(t, err)
	require.True(t, keyset.HasMore)
	require.Equal(t, []string{f.caps[2].ID.String(), f.caps[1].ID.String()}, keyset.IDs)
	next, err := capabilityTable.List(f.ctx, f.kit, nil, op.ListParams{Keyset: true, First: &first, After: &keyset.Cursors[1]})
	require.NoError(t, err)
	require.False(t, next.HasMore)
	require.Equal(t, []string{f.caps[0].ID.String()}, next.IDs)
}

func TestChildrenReadsTheNewestOfEachParentInOneStatement(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	ctx, n := store.WithStatementCounter(f.ctx)
	lists, errs := capabilitiesOfAccounts.Bind(f.kit)(ctx, []string{f.a.ID.String(), f.b.ID.String(), "bad", f.otherAcct.ID.String()})
	require.Equal(t, int64(1), n.Load())
	require.NoError(t, errs[0])
	require.Equal(t, []uuid.UUID{f.caps[2].ID, f.caps[1].ID}, []uuid.UUID{lists[0][0].ID, lists[0][1].ID}, "the newest Limit, newest first")
	require.Equal(t, []string{"derived"}, lists[0][0].CurrentlyDue)
	require.NoError(t, errs[1])
	require.Empty(t, lists[1])
	require.NotNil(t, lists[1], "a parent without children has an empty list")
	requireAPIError(t, errs[2], http.StatusNotFound, apierr.CodeResourceMissing)
	require.Empty(t, lists[3], "another tenant's children are not read")
}

func TestLockHoldsTheRowUntilTheWriteCommits(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	locked := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := op.Write(f.ctx, f.kit, op.Spec{Name: "test.lock", Allow: []auth.Kind{auth.SecretKey}},
			func(ctx context.Context, w *op.W) (*models.Account, error) {
				a, err := accountTable.Lock(ctx, w, f.a.ID.String(), op.LockUpdate)
				close(locked)
				<-release
				return a, err
			})
		done <- err
	}()
	<-locked
	// Another transaction cannot take the row while the write holds it.
	err := f.kit.DB.Tx(f.ctx, f.mine, func(ctx context.Context, tx *store.Tenant) error {
		return tx.Select((*models.Account)(nil)).Where("a.id = ?", f.a.ID).For("UPDATE NOWAIT").Scan(ctx)
	})
	require.Error(t, err, "the row is locked")
	close(release)
	require.NoError(t, <-done)

	_, err = op.Write(f.ctx, f.kit, op.Spec{Name: "test.lock", Allow: []auth.Kind{auth.SecretKey}},
		func(ctx context.Context, w *op.W) (*models.Account, error) {
			return accountTable.Lock(ctx, w, f.otherAcct.ID.String(), op.LockShare)
		})
	requireAPIError(t, err, http.StatusNotFound, apierr.CodeResourceMissing)
}

func TestSpecGatesRefuseBeforeAnyStatement(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	_, _ = f.kit.Secret.Get(context.Background()) // loaded at start, as the server does
	never := func(context.Context, *op.W) (bool, error) {
		t.Error("the operation ran")
		return false, nil
	}
	check := op.Spec{Name: "test.check", Allow: []auth.Kind{auth.SecretKey},
		Check: func() error { return apierr.FieldError("amount", "must be positive") }}
	ctx, n := store.WithStatementCounter(f.ctx)
	_, err := op.Write(ctx, f.kit, check, never)
	requireAPIError(t, err, http.StatusUnprocessableEntity, apierr.CodeValidation)
	require.Zero(t, n.Load())

	live := f.as(auth.SecretKey, store.Scope{MerchantID: f.mine.MerchantID, Livemode: true})
	ctx, n = store.WithStatementCounter(live)
	_, err = op.Write(ctx, f.kit, op.Spec{Name: "test.provider", Allow: []auth.Kind{auth.SecretKey}, Provider: "card processor"}, never)
	requireAPIError(t, err, http.StatusServiceUnavailable, apierr.CodeProviderNotConfigured)
	require.Zero(t, n.Load())
}

// A filter's own conditions (Apply) join its tagged ones.
type searchFilter struct {
	Q *string `query:"q" filter:"-"`
}

func (f searchFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Q != nil {
		q = q.Where("?TableAlias.name = ?", *f.Q)
	}
	return q
}

func TestFilterApplyAddsTheResourcesOwnConditions(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	idv := string(capability.IDV)
	page, err := capabilityTable.List(f.ctx, f.kit, searchFilter{Q: &idv}, op.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	require.Equal(t, f.caps[1].ID, page.Items[0].ID)
}

func TestTableWhereNarrowsEveryRead(t *testing.T) {
	t.Parallel()
	f := setupKit(t)
	// A table that no longer shows account b (as a deleted endpoint is
	// gone): Get, ByIDs, List and a write's Lock all leave it out.
	shown := &op.Table[models.Account]{Resource: "account",
		Where: func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("?TableAlias.id <> ?", f.b.ID) }}
	_, err := shown.Get(f.ctx, f.kit, f.b.ID.String())
	requireAPIError(t, err, http.StatusNotFound, apierr.CodeResourceMissing)
	rows, errs := shown.ByIDs(f.ctx, f.kit, []string{f.a.ID.String(), f.b.ID.String()})
	require.NoError(t, errs[0])
	require.Equal(t, f.a.ID, rows[0].ID)
	requireAPIError(t, errs[1], http.StatusNotFound, apierr.CodeResourceMissing)
	page, err := shown.List(f.ctx, f.kit, nil, op.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Items, 1)
	require.Equal(t, f.a.ID, page.Items[0].ID)
	_, err = op.Write(f.ctx, f.kit, op.Spec{Name: "test.where", Allow: []auth.Kind{auth.SecretKey}},
		func(ctx context.Context, w *op.W) (*models.Account, error) {
			return shown.Lock(ctx, w, f.b.ID.String(), op.LockUpdate)
		})
	requireAPIError(t, err, http.StatusNotFound, apierr.CodeResourceMissing)
}
