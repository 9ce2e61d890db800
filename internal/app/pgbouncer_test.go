//go:build linux

package app_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// The server's key flows through Debian's PgBouncer in transaction mode,
// configured as docs/scaling.md says: writes with idempotency, prepared
// reads by id from many requests at once (each transaction may land on
// another server connection), lists and GraphQL, a River job enqueued in a
// write and worked, and the credential cache's LISTEN kept on a direct
// connection (a revocation reaches it).
func TestKeyFlowsRunThroughPgBouncerInTransactionMode(t *testing.T) {
	t.Parallel()
	primary := testdb.NewPrimary(t)
	bouncer := testdb.StartPgBouncer(t, primary, testdb.ReplicatedDatabase)
	direct := primary.URL(testdb.ReplicatedDatabase)
	e := testenv.OpenWith(t, bouncer.URL, []store.Option{store.WithPooler(direct, false)},
		func(o *app.Options) { o.CredentialCache = auth.DefaultCacheConfig() })
	require.True(t, e.DB.Pooled())
	e.Merchant, e.Keys = e.NewMerchant(auth.NewMerchant{Name: "Pooled"})
	e.StartJobs()
	sk := e.Client(e.Keys.Sandbox.Secret)

	acct := sk.CreateAccount(testenv.VerifiableIndividual("+12001001695"))
	id := acct["id"].(string)
	replay := sk.Do(http.MethodPost, "/v1/accounts", testenv.Individual().RESTBody(), http.Header{"Idempotency-Key": {"pooled-1"}})
	again := sk.Do(http.MethodPost, "/v1/accounts", testenv.Individual().RESTBody(), http.Header{"Idempotency-Key": {"pooled-1"}})
	require.Equal(t, http.StatusCreated, replay.Status)
	require.Equal(t, replay.JSON()["id"], again.JSON()["id"], "the idempotent replay")

	var wg sync.WaitGroup
	statuses := make([]int, 40)
	for i := range statuses {
		wg.Go(func() { statuses[i] = sk.Get("/v1/accounts/" + id).Status })
	}
	wg.Wait()
	for _, s := range statuses {
		require.Equal(t, http.StatusOK, s, "a prepared read by id")
	}
	require.Len(t, sk.Get("/v1/accounts").JSON()["data"], 2)
	g := sk.GraphQL(`{ accounts(first: 5) { edges { node { id capabilities { name } } } } }`, nil)
	require.Empty(t, g.Errors)

	// A job enqueued in the write's transaction, worked by River polling.
	r := sk.Post("/v1/accounts/"+id+"/identity_verifications", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	run := r.JSON()["id"].(string)
	waitUntil(t, "the identity run's job", func() bool {
		return sk.Get("/v1/accounts/" + id + "/identity_verifications/" + run).JSON()["status"] != "pending"
	})

	// LISTEN on the direct connection: a revocation reaches the cache.
	_, err := auth.RevokeKey(context.Background(), e.DB, e.Clock, e.Keys.Sandbox.Secret)
	require.NoError(t, err)
	waitUntil(t, "the revoked key refused", func() bool { return sk.Get("/v1/accounts").Status == http.StatusUnauthorized })
}

// waitUntil polls cond until it holds; the pause paces the loop, the
// deadline only guards against hanging.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for !cond() {
		require.True(t, time.Now().Before(deadline), "waiting for %s", what)
		require.NoError(t, clock.Sleep(t.Context(), 20*time.Millisecond))
	}
}
