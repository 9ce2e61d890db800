package httpx

import (
	"net/http"
	"strings"
	"time"
)

// ClearDeadlinesOnUpgrade lifts the HTTP server's read and write deadlines
// from a websocket upgrade's connection before it is taken over: they bound
// a request, and would otherwise cut a subscription off after the server's
// write timeout. The websocket's own keep-alive notices a dead peer. The
// websocket also gets its own copy of the request info, since it outlives
// the upgrade request's log line.
func ClearDeadlinesOnUpgrade(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})  // unsupported writers keep theirs
			_ = rc.SetWriteDeadline(time.Time{}) // likewise
			r = r.WithContext(DetachInfo(r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}
