package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// A usage invoice's aggregate plans the branch that reads a max meter's
// events whether one is priced or not, and that branch's cost estimate
// follows the payer's events: past jit_above_cost PostgreSQL compiled the
// statement (0.2–0.3 s at a million events) for the millisecond its
// rollups take, so the invoice turns JIT off for its transaction before
// the aggregate. The request's statements are recorded and the aggregate
// explained with JIT forced on every plan (jit_above_cost 0): after the
// invoice's own reads that precede it, the plan compiles nothing; alone,
// it compiles (where the server can compile at all), so the first plan
// owes its lack of JIT to the invoice, not to the data.
func TestUsageInvoiceAggregatesWithoutJIT(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newUsageCustomer(t, f, 3)
	f.seedUsage(t, p, 100)

	rec := &store.StatementRecorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.env.App.Handler.ServeHTTP(w, r.WithContext(store.WithStatementRecorder(r.Context(), rec)))
	}))
	t.Cleanup(srv.Close)
	f.env.Server = srv
	r := f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar1), iso(mar15)).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))

	var reads []store.RecordedStatement
	var aggregate *store.RecordedStatement
	for _, s := range rec.Take() {
		if strings.HasPrefix(s.SQL, `WITH "ev"`) && strings.Contains(s.SQL, "usage_rollups") {
			aggregate = &s
			break
		}
		if strings.HasPrefix(s.SQL, "SELECT") {
			reads = append(reads, s)
		}
	}
	require.NotNil(t, aggregate, "the invoice aggregated its window")

	ctx := context.Background()
	plan, _ := explainForcingJIT(t, ctx, f.env, reads, *aggregate)
	require.NotContains(t, plan, "JIT:", "%s\nplan:\n%s", aggregate.SQL, plan)
	if plan, jit := explainForcingJIT(t, ctx, f.env, nil, *aggregate); jit {
		require.Contains(t, plan, "JIT:", "without the invoice's reads before it\nplan:\n%s", plan)
	}
}

// explainForcingJIT is the plan of s in a transaction where JIT would
// compile any plan, after running reads (as recorded) in it; jit says
// whether the server can compile at all (pg_jit_available, a JIT provider
// installed).
func explainForcingJIT(t *testing.T, ctx context.Context, env *testenv.Env, reads []store.RecordedStatement,
	s store.RecordedStatement) (plan string, jit bool) {
	t.Helper()
	tx, err := env.DB.Pool.Begin(ctx)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback(ctx) }()
	for _, set := range []string{"SET LOCAL jit = on", "SET LOCAL jit_above_cost = 0"} {
		_, err = tx.Exec(ctx, set)
		require.NoError(t, err, set)
	}
	require.NoError(t, tx.QueryRow(ctx, "SELECT pg_jit_available()").Scan(&jit))
	for _, q := range reads {
		rows, err := tx.Query(ctx, q.SQL, q.Args...)
		require.NoError(t, err, q.SQL)
		rows.Close()
		require.NoError(t, rows.Err(), q.SQL)
	}
	return testenv.Explain(t, ctx, tx, s), jit
}
