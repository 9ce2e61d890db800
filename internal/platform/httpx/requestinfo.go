// Package httpx holds the HTTP plumbing shared by every route: request ids,
// the one-line JSON request log, Prometheus metrics and panic recovery.
package httpx

import (
	"context"
	"net"
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// RequestInfo is what the plumbing learns about a request while it runs;
// the log line reports it at the end.
type RequestInfo struct {
	ID         string
	MerchantID string
	Livemode   bool
	Credential string
	// GraphQLOperation and GraphQLOperationType name a GraphQL request's
	// operation (e.g. "Accounts", "query").
	GraphQLOperation     string
	GraphQLOperationType string
	// RemoteIP and UserAgent are the client's, as the connection and the
	// User-Agent header give them: the evidence attestations record (roster
	// certification, consent to prefilled data). Forwarding headers are not
	// trusted; a server behind a proxy sees the proxy's address.
	RemoteIP  string
	UserAgent string
}

type infoKey struct{}

// Info returns the request's info (never nil inside the middleware chain).
func Info(ctx context.Context) *RequestInfo {
	if ri, ok := ctx.Value(infoKey{}).(*RequestInfo); ok {
		return ri
	}
	return &RequestInfo{}
}

// RequestIDFromContext returns the request id, e.g. for error bodies.
func RequestIDFromContext(ctx context.Context) string { return Info(ctx).ID }

// RequestID gives every request an id (`req_` + random), echoed in the
// Request-Id response header, error bodies and the log line.
func RequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := &RequestInfo{ID: "req_" + auth.RandomString(24), RemoteIP: remoteIP(r.RemoteAddr), UserAgent: r.UserAgent()}
		w.Header().Set("Request-Id", ri.ID)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), infoKey{}, ri)))
	})
}

// NotePrincipal records the authenticated caller for the log line.
func NotePrincipal(ctx context.Context, p *auth.Principal) {
	if p == nil {
		return
	}
	ri := Info(ctx)
	ri.MerchantID = p.Merchant.ID.String()
	ri.Livemode = p.Scope.Livemode
	ri.Credential = string(p.Kind)
}

// remoteIP is the host part of a connection's remote address.
func remoteIP(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// DetachInfo returns ctx with its own copy of the request's info, for work
// that outlives the request's log line (a websocket taken over from it):
// what that work notes later no longer races with the line being written.
func DetachInfo(ctx context.Context) context.Context {
	ri := *Info(ctx)
	return context.WithValue(ctx, infoKey{}, &ri)
}
