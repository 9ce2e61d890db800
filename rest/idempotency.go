package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
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
		w = httpx.OnHeader(w, func(h http.Header) {
			if req.Replayed {
				h.Set(idempotency.ReplayHeader, "true")
			}
		})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
