package op_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// tableFixture is two accounts of the test merchant, the first with a
// capability, and a secret key's context counting its statements.
type tableFixture struct {
	kit        *op.Kit
	ctx        context.Context
	statements interface{ Load() int64 }
	first      string
	second     string
	capability string
}

func setupTable(t *testing.T) *tableFixture {
	t.Helper()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	first := sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	second := sk.CreateAccount(testenv.Individual())
	caps := first["capabilities"].([]any)
	require.NotEmpty(t, caps)
	p := &auth.Principal{Kind: auth.SecretKey, Merchant: env.Merchant,
		Scope: store.Scope{MerchantID: env.Merchant.ID, Livemode: false}}
	ctx, n := store.WithStatementCounter(auth.WithPrincipal(context.Background(), p))
	return &tableFixture{kit: env.Services.Accounts.Kit, ctx: ctx, statements: n,
		first: first["id"].(string), second: second["id"].(string),
		capability: caps[0].(map[string]any)["id"].(string)}
}

func requireMissing(t *testing.T, err error, resource, id string) {
	t.Helper()
	e := apierr.As(err)
	require.NotNil(t, e, "%v", err)
	require.Equal(t, apierr.CodeResourceMissing, e.Code)
	require.Equal(t, apierr.NotFound(resource, id).Message, e.Message)
}

// Sees refuses an id before any statement, in Get and in ByIDs alike.
func TestTableSeesRefusesWithoutAStatement(t *testing.T) {
	t.Parallel()
	f := setupTable(t)
	onlyFirst := &op.Table[models.Account]{Resource: "account",
		Sees: func(_ *auth.Principal, id uuid.UUID) bool { return id.String() == f.first }}

	_, err := onlyFirst.Get(f.ctx, f.kit, f.second)
	requireMissing(t, err, "account", f.second)
	require.Zero(t, f.statements.Load())

	rows, errs := onlyFirst.ByIDs(f.ctx, f.kit, []string{f.second, f.first})
	requireMissing(t, errs[0], "account", f.second)
	require.NoError(t, errs[1])
	require.Equal(t, f.first, rows[1].ID.String())
	require.EqualValues(t, 1, f.statements.Load())
}

// Children's Sees refuses a parent before any statement.
func TestChildrenSeesRefusesParentWithoutAStatement(t *testing.T) {
	t.Parallel()
	f := setupTable(t)
	caps := &op.Children[models.Capability]{Table: &op.Table[models.Capability]{Resource: "capability"},
		Parent: "account", Column: "account_id",
		Sees: func(_ *auth.Principal, id uuid.UUID) bool { return id.String() == f.first }}

	lists, errs := caps.Load(f.ctx, f.kit, []string{f.second})
	requireMissing(t, errs[0], "account", f.second)
	require.Empty(t, lists[0])
	require.Zero(t, f.statements.Load())

	lists, errs = caps.Load(f.ctx, f.kit, []string{f.first, f.second})
	require.NoError(t, errs[0])
	require.NotEmpty(t, lists[0])
	requireMissing(t, errs[1], "account", f.second)
	require.EqualValues(t, 1, f.statements.Load())
}

// GetOf reads a child under its parent: another parent's child is missing
// like one that does not exist, and a parent id that does not parse names
// the parent.
func TestTableGetOf(t *testing.T) {
	t.Parallel()
	f := setupTable(t)
	caps := &op.Table[models.Capability]{Resource: "capability"}

	c, err := caps.GetOf(f.ctx, f.kit, "account_id", "account", f.first, f.capability)
	require.NoError(t, err)
	require.Equal(t, f.capability, c.ID.String())

	_, err = caps.GetOf(f.ctx, f.kit, "account_id", "account", f.second, f.capability)
	requireMissing(t, err, "capability", f.capability)

	_, err = caps.GetOf(f.ctx, f.kit, "account_id", "account", "acct_nope", f.capability)
	requireMissing(t, err, "account", "acct_nope")
	require.EqualValues(t, 2, f.statements.Load())
}

// A table with computed columns reads the model's own columns and them in
// one statement.
func TestTableColumns(t *testing.T) {
	t.Parallel()
	f := setupTable(t)
	withJSON := &op.Table[models.Account]{Resource: "account",
		Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr("'[]' AS capabilities_json") }}

	a, err := withJSON.Get(f.ctx, f.kit, f.first)
	require.NoError(t, err)
	require.Equal(t, f.first, a.ID.String())
	require.JSONEq(t, "[]", string(a.LoadedCapabilities))
}
