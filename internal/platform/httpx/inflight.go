package httpx

import (
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// CodeServerBusy is the error code of a request refused because the
// process is at its connection or in-flight bound.
const CodeServerBusy = "server_busy"

// busyRetryAfter is the Retry-After of a server_busy answer, in seconds.
const busyRetryAfter = 1

// InFlight bounds the requests in handlers at once.
type InFlight struct {
	slots    chan struct{} // nil: no limit
	exempt   map[string]bool
	writeErr func(http.ResponseWriter, *http.Request, error)
	refused  atomic.Int64
}

// NewInFlight bounds requests to max at once (0: no limit). A request
// beyond it, or any request on a connection beyond the connection bound
// (Saturated), is answered 503 server_busy with Retry-After through
// writeErr (the envelope) at once, never queued. Requests for the exempt
// paths (/healthz) are always served.
func NewInFlight(max int, writeErr func(http.ResponseWriter, *http.Request, error), exempt ...string) *InFlight {
	l := &InFlight{exempt: map[string]bool{}, writeErr: writeErr}
	if max > 0 {
		l.slots = make(chan struct{}, max)
	}
	for _, p := range exempt {
		l.exempt[p] = true
	}
	return l
}

// Count is the number of requests holding a slot now.
func (l *InFlight) Count() int { return len(l.slots) }

// Refused is the number of requests answered server_busy so far.
func (l *InFlight) Refused() int64 { return l.refused.Load() }

// Middleware applies the bound.
func (l *InFlight) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		saturated := Saturated(r.Context())
		if saturated {
			// Free the connection for the next client as soon as possible.
			w.Header().Set("Connection", "close")
		}
		if l.exempt[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		if saturated {
			l.busy(w, r)
			return
		}
		if l.slots == nil {
			next.ServeHTTP(w, r)
			return
		}
		select {
		case l.slots <- struct{}{}:
		default:
			l.busy(w, r)
			return
		}
		defer func() { <-l.slots }()
		next.ServeHTTP(w, r)
	})
}

func (l *InFlight) busy(w http.ResponseWriter, r *http.Request) {
	l.refused.Add(1)
	l.writeErr(w, r, &apierr.Error{Status: http.StatusServiceUnavailable, Code: CodeServerBusy,
		Message: "The server is at capacity; retry after " + strconv.Itoa(busyRetryAfter) + " second",
		Headers: map[string]string{"Retry-After": strconv.Itoa(busyRetryAfter)}})
}
