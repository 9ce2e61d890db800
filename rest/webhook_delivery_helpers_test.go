package rest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/resolvers/webhooks"
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
	progress signal // each request recorded, and each answered
	mu       sync.Mutex
	got      []received
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
		rc.progress.notify()
		defer rc.progress.notify()
		if answer == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		answer(n, w, r)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// await waits until the receiver has got n requests.
func (rc *receiver) await(n int) {
	rc.progress.await(func() bool { return len(rc.requests()) == n })
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// signal wakes whoever waits on a state a test's own handlers change.
type signal struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced at each notify
}

// notify wakes the waiters: what they wait on may have changed.
func (s *signal) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

// await checks done now and again after each notify. It has no deadline
// of its own (the test binary's timeout guards a state never reached).
func (s *signal) await(done func() bool) {
	for {
		s.mu.Lock()
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		changed := s.changed
		s.mu.Unlock()
		if done() {
			return
		}
		<-changed
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
	f.env.AwaitWrites(func() bool {
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
	}, "webhook_deliveries")
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

// awaitDeliveryJobsDone waits until no webhook delivery job is left to run
// (each finished, none waiting for a retry): from then on no attempt can
// come, so a test may check that none more came.
func awaitDeliveryJobsDone(t *testing.T, f *fixture) {
	t.Helper()
	f.env.AwaitWrites(func() bool {
		var left int
		require.NoError(t, f.env.DB.Pool.QueryRow(t.Context(), `SELECT count(*) FROM river_job
			WHERE kind = $1 AND finalized_at IS NULL`, webhooks.DeliverArgs{}.Kind()).Scan(&left))
		return left == 0
	}, "river_job")
}
