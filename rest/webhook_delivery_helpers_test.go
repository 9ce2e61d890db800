package rest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// received is one POST a test receiver got.
type received struct {
	Header http.Header
	Body   []byte
}

// receiver is a real HTTP server standing for an integration's webhook
// endpoint. answer decides each response from the number of requests
// before it.
type receiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []received
}

func newReceiver(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		n := len(rc.got)
		rc.got = append(rc.got, received{Header: r.Header.Clone(), Body: body})
		rc.mu.Unlock()
		if answer == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		answer(n, w, r)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// waitFor polls cond until it holds; the pause only paces the loop.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // generous: the race detector on two shared cores
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// deliveries lists an endpoint's deliveries, oldest first.
func deliveries(t *testing.T, f *fixture, endpointID string) []map[string]any {
	t.Helper()
	r := f.sk.Get("/v1/webhook_endpoints/" + endpointID + "/deliveries?per_page=100")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var out []map[string]any
	for _, d := range r.JSON()["data"].([]any) {
		out = append([]map[string]any{d.(map[string]any)}, out...)
	}
	return out
}

// waitDelivered waits until every delivery of the endpoint is done (n of
// them) and returns them, oldest first.
func waitDelivered(t *testing.T, f *fixture, endpointID string, n int) []map[string]any {
	t.Helper()
	var ds []map[string]any
	waitFor(t, "deliveries to finish", func() bool {
		ds = deliveries(t, f, endpointID)
		if len(ds) < n {
			return false
		}
		for _, d := range ds {
			if d["status"] == "pending" {
				return false
			}
		}
		return true
	})
	require.Len(t, ds, n)
	return ds
}

// newTLSServer serves rc over https (a self-signed certificate; the
// delivery never gets as far as checking it when the address is refused).
func newTLSServer(t *testing.T, rc *receiver) *httptest.Server {
	t.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{Header: r.Header.Clone(), Body: body})
		rc.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv
}
