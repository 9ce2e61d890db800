package httpx

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Recover turns a panic into a 500 in the API envelope, logged with its
// stack under the request id.
func Recover(writeErr func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					slog.ErrorContext(r.Context(), "panic", "request_id", RequestIDFromContext(r.Context()),
						"panic", Redact(fmt.Sprint(v)), "stack", string(debug.Stack()))
					writeErr(w, r, apierr.Internal(fmt.Errorf("panic: %v", v)))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
