//go:build linux

package cable_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// Behind PgBouncer in transaction mode (docs/scaling.md) a listen session
// works as it does on a direct connection: its writes and its acks go
// through the pooler, the notifications of its deliveries arrive on the
// process's direct LISTEN connection, and the request log's announcements
// and records (NOTIFY through the pooler) reach a tailer.
func TestListenSessionAndRequestLogThroughPgBouncer(t *testing.T) {
	t.Parallel()
	primary := testdb.NewPrimary(t)
	bouncer := testdb.StartPgBouncer(t, primary, testdb.ReplicatedDatabase)
	env := testenv.OpenWith(t, bouncer.URL,
		[]store.Option{store.WithPooler(primary.URL(testdb.ReplicatedDatabase), false)})
	require.True(t, env.DB.Pooled())
	env.Merchant, env.Keys = env.NewMerchant(authMerchant("Pooled"))
	sk := env.Client(env.Keys.Sandbox.Secret)

	c, id, s := listening(t, env, []string{"customer.created"}, false)
	cus := sk.CreateCustomer(testenv.Customer())
	e := nextEvent(t, c, id, s.Secret)
	require.Equal(t, cus.ID.String(), e.Object["id"])
	c.Ack(id, e.ID, 200, "ok", 2)
	require.Empty(t, barrier(t, c, 1))
	d := sk.Get("/v1/webhook_deliveries/" + e.ID).JSON()
	require.Equal(t, "succeeded", d["status"], d)

	logs := env.DialCable(env.Keys.Sandbox.Secret)
	tailLogs(t, logs)
	r := sk.Get("/v1/accounts")
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, r.Header.Get("Request-Id"), nextLog(t, logs)["request_id"])
}
