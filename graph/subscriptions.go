package graph

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	coderws "github.com/coder/websocket"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/resolvers"
)

// Websocket limits: a subscriber must say hello promptly, messages from
// clients are small, and a silent peer is noticed.
const (
	wsInitTimeout      = 10 * time.Second
	wsKeepAlive        = 15 * time.Second
	wsPayloadReadLimit = 64 << 10
)

// websocketTransport serves subscriptions (the live event stream) over
// websockets at /graphql, both graphql-transport-ws and the older
// graphql-ws. The caller authenticates with the upgrade request's
// Authorization header, or, since browsers cannot set headers on a
// websocket, with an Authorization member of the connection_init payload
// ("Bearer sk_..."). Browsers may connect from the server's own origin,
// and from the origins the server lets call the API (origins, serve
// --cors-origins; "*": any), so no other site's page can ride a dashboard
// user's session.
func websocketTransport(res *resolvers.Resolver, origins []string) transport.Websocket {
	limit := int64(wsPayloadReadLimit)
	return transport.Websocket{
		Implementation: transport.CoderWebsocketImplementation{
			AcceptOptions: coderws.AcceptOptions{OriginPatterns: originHosts(origins)}},
		InitTimeout:           wsInitTimeout,
		KeepAlivePingInterval: wsKeepAlive,
		PayloadReadLimit:      &limit,
		InitFunc: func(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
			if auth.FromContext(ctx) != nil || res.Authenticate == nil {
				return ctx, nil, nil
			}
			h := p.Authorization()
			if h == "" {
				return ctx, nil, nil
			}
			scheme, cred, ok := strings.Cut(h, " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") {
				return refuseInit(ctx), nil, apierr.Unauthorized(apierr.CodeAuthenticationNeeded,
					"Malformed Authorization: use 'Bearer <credential>'")
			}
			principal, err := res.Authenticate(ctx, strings.TrimSpace(cred))
			if err != nil {
				return refuseInit(ctx), nil, err
			}
			return auth.WithPrincipal(ctx, principal), nil, nil
		},
	}
}

// wsCloseForbidden is the close code graphql-transport-ws gives a refused
// connection_init.
const wsCloseForbidden = 4403

// refuseInit is the context a refused connection_init returns with its
// error: the transport reads the close code and reason from it (a nil
// context would be dereferenced), and closes the socket 4403 Forbidden as
// the protocol asks.
func refuseInit(ctx context.Context) context.Context {
	return transport.WithWebsocketCloseCode(transport.AppendCloseReason(ctx, "Forbidden"), wsCloseForbidden)
}

// clearDeadlinesOnUpgrade lifts the HTTP server's read and write deadlines
// from a websocket upgrade's connection before it is taken over: they bound
// a request, and would otherwise cut a subscription off after the server's
// write timeout. The websocket's own keep-alive notices a dead peer. The
// websocket also gets its own copy of the request info, since it outlives
// the upgrade request's log line.
func clearDeadlinesOnUpgrade(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Time{})  // unsupported writers keep theirs
			_ = rc.SetWriteDeadline(time.Time{}) // likewise
			r = r.WithContext(httpx.DetachInfo(r.Context()))
		}
		next.ServeHTTP(w, r)
	})
}

// originHosts are the hosts (host[:port]) of origins as the websocket
// library matches an upgrade's Origin against them, beside the server's
// own host, which it always accepts; "*" matches any.
func originHosts(origins []string) []string {
	var out []string
	for _, o := range origins {
		if o == "*" {
			out = append(out, "*")
			continue
		}
		if _, host, ok := strings.Cut(o, "://"); ok {
			out = append(out, host)
		}
	}
	return out
}
