package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// childServeEnv makes this test binary run `serve` instead of the tests:
// the way a test starts real server processes of its own.
const childServeEnv = "PAYMENTS_TEST_CHILD_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(childServeEnv) == "1" {
		os.Exit(run(append([]string{"serve"}, strings.Fields(os.Getenv(childServeEnv+"_ARGS"))...), os.Stdout, os.Stderr))
	}
	if os.Getenv(childRunEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	raiseParallel()
	testdb.Main(m)
}

// serverProcess is a `server serve` process on the test database.
type serverProcess struct {
	cmd  *exec.Cmd
	url  string
	logs *lockedBuffer
}

func startServer(t *testing.T, databaseURL string) *serverProcess {
	t.Helper()
	p := &serverProcess{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	// Port 0, read back from the log: see readmeUser.start.
	p.cmd.Env = append(os.Environ(), childServeEnv+"=1", childServeEnv+"_ARGS=--addr 127.0.0.1:0",
		"DATABASE_URL="+databaseURL, "DEBUG_ADDR=")
	p.logs = startChild(t, p.cmd, "server", 20*time.Second)
	requireServing(t, p.logs)
	p.url = "http://" + servingAddr(t, p.logs)
	return p
}

func (p *serverProcess) do(t *testing.T, key, method, path string, body any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequest(method, p.url+path, bytes.NewReader(raw))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Less(t, resp.StatusCode, 300, string(out))
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m), string(out))
	return m
}

// Two server processes (each with its own pool, River client and
// dispatcher) on one database: every event is delivered, none twice.
func TestTwoServerProcessesDeliverEveryEventOnce(t *testing.T) {
	t.Parallel()
	testdb.Long(t, "two server processes of its own")
	url := testdb.NewDatabaseURL(t)
	db, err := store.Open(context.Background(), url, 2)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	_, keys, err := auth.CreateMerchant(context.Background(), db, clock.Real{}, auth.NewMerchant{Name: "Acme",
		Products: []string{"identity", "payments", "payouts", "geo_compliance", "creator_shield"}})
	require.NoError(t, err)

	var mu sync.Mutex
	got := map[string]int{}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.Header.Get("X-Frame-Webhook-Id")]++
		mu.Unlock()
	}))
	t.Cleanup(receiver.Close)

	a, b := startServer(t, url), startServer(t, url)
	sk := keys.Sandbox.Secret
	a.do(t, sk, http.MethodPost, "/v1/webhook_endpoints", map[string]any{"url": receiver.URL, "event_codes": []string{"account.created"}})
	const n = 20
	for i := range n {
		p := a
		if i%2 == 1 {
			p = b
		}
		p.do(t, sk, http.MethodPost, "/v1/accounts", map[string]any{"type": "individual",
			"profile": map[string]any{"individual": map[string]any{"name": map[string]any{
				"first_name": "Ada", "last_name": fmt.Sprintf("Lovelace %d", i)}}}})
	}
	// Every event received, and the deliveries settled: each recorded as
	// succeeded and no delivery job left to run, so no later duplicate can
	// come.
	testdb.AwaitWrites(t, url, func() bool {
		mu.Lock()
		received := len(got)
		mu.Unlock()
		var unsettled int
		require.NoError(t, db.Pool.QueryRow(context.Background(), `SELECT
			(SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded') +
			(SELECT count(*) FROM river_job WHERE kind = $1 AND finalized_at IS NULL)`,
			webhooks.DeliverArgs{}.Kind()).Scan(&unsettled))
		return received == n && unsettled == 0
	}, "webhook_deliveries", "river_job")
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, n, "every event delivered")
	for id, times := range got {
		require.Equal(t, 1, times, "delivery %s arrived %d times", id, times)
	}
}
