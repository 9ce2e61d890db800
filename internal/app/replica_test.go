package app_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// replicaReads is how many reads the one replica has served so far.
func replicaReads(e *testenv.Env) int64 { return e.DB.Replicas().States()[0].Reads }

// Through the API, against a real streaming standby made to lag (replay
// paused): REST lists and GraphQL pages of a merchant that has not written
// since come from the replica; a merchant that just wrote reads its write
// from the primary, in both transports, until the replica has replayed it;
// writes, reads by id and requests carrying an Idempotency-Key never read
// the replica.
func TestListsReadTheReplicaAndTheirWriterReadsItsWrites(t *testing.T) {
	t.Parallel()
	rp := testdb.NewReplicated(t, "replica")
	e := testenv.Open(t, rp.PrimaryURL())
	_, writerKeys := e.NewMerchant(auth.NewMerchant{Name: "Writer"})
	_, readerKeys := e.NewMerchant(auth.NewMerchant{Name: "Reader"})
	writer, reader := e.Client(writerKeys.Sandbox.Secret), e.Client(readerKeys.Sandbox.Secret)
	first := writer.CreateAccount(testenv.Individual())
	reader.CreateAccount(testenv.Individual())
	rp.ResumeReplay(t) // everything so far is on the standby
	ctx := context.Background()
	require.NoError(t, e.DB.OpenReplicas(ctx, store.ReplicaConfig{URLs: []string{rp.ReplicaURL()}, MaxLag: time.Hour, Clock: e.Clock}))

	before := replicaReads(e)
	r := reader.Get("/v1/accounts")
	require.Equal(t, http.StatusOK, r.Status)
	require.Len(t, r.JSON()["data"], 1)
	require.Equal(t, before+1, replicaReads(e), "a REST list of a caught-up replica")
	g := reader.GraphQL(`{ accounts(first: 5) { edges { node { id } } } }`, nil)
	require.Empty(t, g.Errors)
	require.Equal(t, before+2, replicaReads(e), "a GraphQL page too")
	r = reader.Do(http.MethodGet, "/v1/accounts", nil, http.Header{"Idempotency-Key": {"k1"}})
	require.Equal(t, http.StatusOK, r.Status)
	require.Equal(t, before+2, replicaReads(e), "a request carrying an Idempotency-Key reads the primary")
	require.Equal(t, http.StatusOK, writer.Get("/v1/accounts/"+first["id"].(string)).Status)
	require.Equal(t, before+2, replicaReads(e), "a read by id reads the primary")

	rp.PauseReplay(t)
	second := writer.CreateAccount(testenv.Individual())
	before = replicaReads(e)
	r = writer.Get("/v1/accounts")
	require.Equal(t, http.StatusOK, r.Status)
	data := r.JSON()["data"].([]any)
	require.Len(t, data, 2, "the writer sees its write")
	require.Equal(t, second["id"], data[0].(map[string]any)["id"])
	g = writer.GraphQL(`{ accounts(first: 5) { edges { node { id } } } }`, nil)
	require.Empty(t, g.Errors)
	require.Len(t, g.Data["accounts"].(map[string]any)["edges"], 2)
	require.Equal(t, before, replicaReads(e), "the writer's lists came from the primary")
	require.Equal(t, http.StatusOK, reader.Get("/v1/accounts").Status)
	require.Equal(t, before+1, replicaReads(e), "the other merchant still reads the lagging replica")

	rp.ResumeReplay(t)
	require.NoError(t, e.DB.Replicas().Check(ctx))
	r = writer.Get("/v1/accounts")
	require.Len(t, r.JSON()["data"], 2)
	require.Equal(t, before+2, replicaReads(e), "replayed: the writer reads the replica again")
}
