package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/migrations"
)

// Finding 11b: while the database is down, requests answer 503
// database_unavailable with Retry-After in the envelope, not a 500.
func TestDatabaseOutageAnswers503WithRetryAfter(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "a PostgreSQL cluster of its own, stopped and started")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// A PostgreSQL of this test's own, so that stopping it harms no other.
	inst, err := pgembed.StartTemp(ctx, pgembed.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = inst.Stop() })
	// Two servers over the same database: one pool follows the embedded
	// cluster (as `serve` without DATABASE_URL), one dials a fixed URL (as
	// with DATABASE_URL). Both see the outage.
	following, err := store.Open(ctx, inst.URL("postgres"), 4, store.WithConnTarget(inst.Retarget))
	require.NoError(t, err)
	t.Cleanup(following.Close)
	fixed, err := store.Open(ctx, inst.URL("postgres"), 4)
	require.NoError(t, err)
	t.Cleanup(fixed.Close)
	require.NoError(t, migrations.Apply(ctx, fixed.Bun))
	clk := clock.NewManual(testenv.Start)
	_, keys, err := auth.CreateMerchant(ctx, fixed, clk, auth.NewMerchant{Name: "Outage"})
	require.NoError(t, err)
	var servers []*httptest.Server
	for _, db := range []*store.DB{following, fixed} {
		a := app.New(app.Options{DB: db, Clock: clk, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
			GraphQL: testenv.GraphQLHandler})
		srv := httptest.NewServer(a.Handler)
		t.Cleanup(srv.Close)
		servers = append(servers, srv)
	}

	send := func(srv *httptest.Server, method, path, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+keys.Sandbox.Secret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	// Up: the pools hold connections that the outage will break.
	for _, srv := range servers {
		require.Equal(t, 200, send(srv, http.MethodGet, "/v1/accounts", "").StatusCode)
	}

	require.NoError(t, inst.Stop())
	requests := []struct{ method, path, body string }{
		{http.MethodGet, "/v1/accounts", ""},
		{http.MethodGet, "/v1/accounts", ""},
		{http.MethodPost, "/v1/accounts", `{"type":"individual","profile":{"individual":{"email":"a@example.com"}}}`},
		{http.MethodPost, "/graphql", `{"query":"{ __typename }"}`},
		{http.MethodGet, "/v1/accounts", ""},
	}
	for i, srv := range servers {
		for _, r := range requests {
			resp := send(srv, r.method, r.path, r.body)
			require.Equal(t, 503, resp.StatusCode, "server %d: %s %s", i, r.method, r.path)
			require.Equal(t, "2", resp.Header.Get("Retry-After"))
			var env map[string]any
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&env))
			require.Equal(t, float64(503), env["status"])
			require.NotEmpty(t, env["message"])
			require.Equal(t, env["message"], env["error"])
			require.Equal(t, "database_unavailable", env["code"])
			require.Equal(t, resp.Header.Get("Request-Id"), env["request_id"])
			require.NotContains(t, env["message"], "refused", "the cause is never shown")
			details, _ := env["error_details"].(map[string]any)
			require.Equal(t, env["message"], details["message"])
		}
	}
	srv := servers[0]
	ready, err := srv.Client().Get(srv.URL + "/readyz")
	require.NoError(t, err)
	_ = ready.Body.Close()
	require.Equal(t, 503, ready.StatusCode)
}
