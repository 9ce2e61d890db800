package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/idempotency"
)

// withIdempotencyKey hands a POST's Idempotency-Key to the write path, which
// claims it, replays or records the result inside the operation's own
// transaction (resolvers/op). Here the key is only checked and carried;
// a replayed response is marked with Idempotent-Replayed: true.
func withIdempotencyKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get(idempotency.Header)
		if r.Method != http.MethodPost || key == "" {
			next.ServeHTTP(w, r)
			return
		}
		if err := idempotency.Validate(key); err != nil {
			WriteError(w, r, err)
			return
		}
		ctx, req := idempotency.With(r.Context(), key)
		next.ServeHTTP(&replayMarker{ResponseWriter: w, req: req}, r.WithContext(ctx))
	})
}

// replayMarker adds the replay header when the response starts.
type replayMarker struct {
	http.ResponseWriter
	req     *idempotency.Request
	started bool
}

func (m *replayMarker) WriteHeader(code int) {
	if !m.started {
		m.started = true
		if m.req.Replayed {
			m.Header().Set(idempotency.ReplayHeader, "true")
		}
	}
	m.ResponseWriter.WriteHeader(code)
}

func (m *replayMarker) Write(b []byte) (int, error) {
	if !m.started {
		m.WriteHeader(http.StatusOK)
	}
	return m.ResponseWriter.Write(b)
}
