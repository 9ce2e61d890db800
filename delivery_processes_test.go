package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
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

// lockedBuffer collects a child's output, written by exec's copying
// goroutine while the test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startServer(t *testing.T, databaseURL string) *serverProcess {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	p := &serverProcess{url: "http://" + addr, logs: &lockedBuffer{}}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), childServeEnv+"=1", childServeEnv+"_ARGS=--addr "+addr,
		"DATABASE_URL="+databaseURL, "DEBUG_ADDR=")
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = p.cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server %s logs:\n%s", addr, p.logs.String())
		}
	})
	deadline := time.Now().Add(liveGuard)
	for {
		resp, err := http.Get(p.url + "/healthz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		require.True(t, time.Now().Before(deadline), "server did not start: %s", p.logs.String())
		time.Sleep(50 * time.Millisecond)
	}
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
	deadline := time.Now().Add(90 * time.Second) // generous: the race detector on two shared cores
	for {
		mu.Lock()
		delivered := len(got)
		mu.Unlock()
		if delivered == n {
			break
		}
		require.True(t, time.Now().Before(deadline), "delivered %d of %d", delivered, n)
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // room for a duplicate to show
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, got, n, "every event delivered")
	for id, times := range got {
		require.Equal(t, 1, times, "delivery %s arrived %d times", id, times)
	}
}
