package graph_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// node(id:) of an id that is nothing's tries every node resource in turn;
// each look-up must find its rows through an index, whatever the tables
// hold. Every statement the request ran is recorded and explained with
// sequential scans turned off, so a plan shows whether an index can serve
// the statement at all: none may scan a table. The dispute documents'
// look-up (a document lives in its dispute's evidence, with no row of its
// own) is explained once more over a merchant with thousands of disputes
// (a temporary copy of the table, with its indexes, standing in for it in
// the transaction), where reading the merchant's key range would read
// every one: its containment test must be the GIN index's condition.
func TestNodeOfAnUnknownIDProbesEveryTableByAnIndex(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	pm := f.sk.CreateAccountCard(str(acct["id"]), "4242424242424242")
	tr := f.sk.CreateTransfer(testenv.Charge(str(acct["id"]), pm.ID.String(), 1000))
	d := f.sk.OpenDispute(tr.LatestCharge.String(), "")
	gql(t, f.sk, `mutation($id: ID!) { addDisputeDocument(id: $id, input: {fileId: "file_1"}) { id } }`,
		map[string]any{"id": d.ID.String()})

	rec := &store.StatementRecorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.env.App.Handler.ServeHTTP(w, r.WithContext(store.WithStatementRecorder(r.Context(), rec)))
	}))
	t.Cleanup(srv.Close)
	f.env.Server = srv
	g := gql(t, f.sk, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": uuid.NewString()})
	require.Nil(t, g.Data["node"])

	ctx := context.Background()
	var documents bool
	for _, s := range rec.Take() {
		if s.SQL == "BEGIN" || s.SQL == "COMMIT" || s.SQL == "ROLLBACK" {
			continue
		}
		plan := explain(t, ctx, f.env, s, "SET LOCAL enable_seqscan = off")
		require.NotContains(t, plan, "Seq Scan", "%s\nplan:\n%s", s.SQL, plan)
		if strings.Contains(s.SQL, "'documents' @>") {
			documents = true
			plan = explain(t, ctx, f.env, s, manyDisputes(f.env)...)
			require.Regexp(t, `Index Cond: \(\(evidence -> 'documents'::text\) @>`, plan, "%s\nplan:\n%s", s.SQL, plan)
		}
	}
	require.True(t, documents, "node(id:) looked for a dispute document")
}

// manyDisputes are the statements that make "disputes", within one
// transaction, a temporary copy of the table and its indexes holding
// 5,000 disputes of env's merchant, each with a document, analyzed.
func manyDisputes(env *testenv.Env) []string {
	return []string{"CREATE TEMPORARY TABLE disputes (LIKE public.disputes INCLUDING ALL) ON COMMIT DROP",
		`INSERT INTO disputes (merchant_id, id, livemode, charge_id, transfer_id, status, amount, currency, evidence, created, updated)
		SELECT '` + env.Merchant.ID.String() + `', gen_random_uuid(), false, gen_random_uuid(), gen_random_uuid(), 'needs_response',
		       100, 'USD', jsonb_build_object('documents', jsonb_build_array(jsonb_build_object('id', gen_random_uuid()))), now(), now()
		FROM generate_series(1, 5000)`,
		"ANALYZE disputes"}
}

// explain is the plan of s in a transaction that first runs setup.
func explain(t *testing.T, ctx context.Context, env *testenv.Env, s store.RecordedStatement, setup ...string) string {
	t.Helper()
	tx, err := env.DB.Pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	for _, q := range setup {
		_, err = tx.Exec(ctx, q)
		require.NoError(t, err, q)
	}
	return testenv.Explain(t, ctx, tx, s)
}
