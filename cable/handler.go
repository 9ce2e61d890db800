// Package cable serves /cable: ActionCable over a websocket, the transport
// of the real service's CLI (`frame listen`, API-DECISIONS §10). Like rest
// and graph it only decodes and delivers: the listen sessions and the
// request log are the operation layer's (resolvers/webhooks,
// resolvers/merchant). Channels: Cli::WebhookListenChannel (listen.go) and
// Cli::LogsChannel (logs.go).
package cable

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/resolvers/merchant"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Limits of a connection.
const (
	// readLimit bounds a client frame: an ack carries at most 4096
	// characters of an answer, escaped.
	readLimit = 64 << 10
	// writeTimeout bounds one frame's write: a client that does not read
	// is disconnected.
	writeTimeout = 10 * time.Second
	// pingEvery is ActionCable's ping; a websocket ping every
	// livenessEvery (answered within writeTimeout) notices a dead peer.
	pingEvery     = 3 * time.Second
	livenessEvery = 30 * time.Second
	// maxSubscriptions bounds the subscriptions of one connection.
	maxSubscriptions = 8
)

// Options are what the handler needs besides the services.
type Options struct {
	// WriteError renders a refused upgrade in the API's error envelope.
	WriteError func(http.ResponseWriter, *http.Request, error)
	// Authenticate verifies the connection's credential again every
	// Recheck (default 30 s): a key revoked while the CLI listens ends its
	// connection.
	Authenticate func(ctx context.Context, credential string) (*auth.Principal, error)
	Recheck      time.Duration
	Clock        clock.Clock
	Logger       *slog.Logger
}

// Handler serves /cable.
type Handler struct {
	listen   *webhooks.ListenSessions
	merchant *merchant.Service
	opts     Options
}

// New returns the /cable handler. It expects the authentication middleware
// to have put the caller's principal in the request's context.
func New(listen *webhooks.ListenSessions, m *merchant.Service, opts Options) *Handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Recheck <= 0 {
		opts.Recheck = livenessEvery
	}
	return &Handler{listen: listen, merchant: m, opts: opts}
}

// ServeHTTP authorizes the caller (a sandbox secret key, in the
// Authorization header), then upgrades to a websocket speaking
// actioncable-v1-json and serves its subscriptions until it closes.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if _, err := h.listen.Authorize(r.Context()); err != nil {
		h.opts.WriteError(w, r, err)
		return
	}
	if !offers(r, Subprotocol) {
		h.opts.WriteError(w, r, &apierr.Error{Status: http.StatusBadRequest, Code: "subprotocol_required",
			Message: "Open /cable as a websocket with the subprotocol " + Subprotocol})
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Subprotocol}})
	if err != nil {
		return // Accept answered the client
	}
	ws.SetReadLimit(readLimit)
	ctx, cancel := context.WithCancelCause(r.Context())
	_, credential, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	c := &conn{h: h, ws: ws, ctx: ctx, stop: cancel, credential: strings.TrimSpace(credential),
		subs: map[string]subscription{}}
	c.serve()
}

// offers reports whether the upgrade request offers the subprotocol.
func offers(r *http.Request, protocol string) bool {
	for _, h := range r.Header.Values("Sec-WebSocket-Protocol") {
		for p := range strings.SplitSeq(h, ",") {
			if strings.TrimSpace(p) == protocol {
				return true
			}
		}
	}
	return false
}

// subscription is one channel subscription of a connection.
type subscription interface {
	// perform runs a message the client sent on the subscription.
	perform(data string)
	// stop ends it: unsubscribed by the client, or the connection ended.
	stop(unsubscribed bool)
}

// conn is one websocket connection and its subscriptions.
type conn struct {
	h          *Handler
	ws         *websocket.Conn
	ctx        context.Context
	stop       context.CancelCauseFunc
	credential string // verified again every Options.Recheck

	subs map[string]subscription // by identifier; the read loop's own
	wg   sync.WaitGroup          // the subscriptions' goroutines
}

// errClientGone ends a connection whose client closed it or stopped
// answering.
var errClientGone = errors.New("cable: the client is gone")

func (c *conn) serve() {
	defer c.close()
	if err := c.write(typed{Type: typeWelcome}); err != nil {
		return
	}
	c.wg.Go(c.keepAlive)
	for {
		_, frame, err := c.ws.Read(c.ctx)
		if err != nil {
			c.stop(errClientGone)
			return
		}
		cmd, id, ok := parseCommand(frame)
		if !ok {
			continue // ActionCable ignores what it cannot read
		}
		switch cmd.Command {
		case "subscribe":
			c.subscribe(cmd, id)
		case "unsubscribe":
			if s, ok := c.subs[id]; ok {
				delete(c.subs, id)
				s.stop(true)
			}
		case "message":
			if s, ok := c.subs[id]; ok {
				s.perform(cmd.Data)
			}
		}
	}
}

// subscribe opens the channel the identifier names, or rejects it.
func (c *conn) subscribe(cmd command, id string) {
	if _, dup := c.subs[id]; dup {
		return // ActionCable ignores a second subscribe of one identifier
	}
	var s subscription
	if len(c.subs) < maxSubscriptions {
		s = c.open(cmd, id)
	}
	if s == nil {
		_ = c.write(subscriptionStatus{Identifier: cmd.Identifier, Type: typeReject})
		return
	}
	c.subs[id] = s
}

// open starts the subscription to the channel id names; nil refuses it
// (an unknown channel, parameters it refuses).
func (c *conn) open(cmd command, id string) subscription {
	var ident identifier
	if err := json.Unmarshal([]byte(id), &ident); err != nil {
		return nil
	}
	switch ident.Channel {
	case listenChannel:
		return c.openListen(cmd, id)
	case logsChannel:
		return c.openLogs(cmd)
	}
	return nil
}

// keepAlive sends ActionCable's pings, checks with websocket pings that
// the client still answers, and that its credential is still valid.
func (c *conn) keepAlive() {
	pings := time.NewTicker(pingEvery)
	defer pings.Stop()
	liveness := time.NewTicker(livenessEvery)
	defer liveness.Stop()
	recheck := time.NewTicker(c.h.opts.Recheck)
	defer recheck.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-pings.C:
			if c.write(ping{Type: typePing, Message: c.h.opts.Clock.Now().Unix()}) != nil {
				return
			}
		case <-liveness.C:
			ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				c.stop(errClientGone)
				return
			}
		case <-recheck.C:
			if c.h.opts.Authenticate == nil {
				continue
			}
			if _, err := c.h.opts.Authenticate(c.ctx, c.credential); err != nil && apierr.From(err).Status == http.StatusUnauthorized {
				c.disconnect("the credential is no longer valid")
				return
			}
		}
	}
}

// write sends one frame, within writeTimeout; a failed write ends the
// connection.
func (c *conn) write(v any) error {
	b, err := encode(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.stop(errClientGone)
		return err
	}
	return nil
}

// disconnect tells the client why the server ends the connection, and
// that it may reconnect (a listen session then resumes), then ends it.
func (c *conn) disconnect(reason string) {
	_ = c.write(disconnect{Type: typeDisconnect, Reason: reason, Reconnect: true})
	c.stop(errors.New("cable: " + reason))
}

// close ends every subscription (a listen session then lives for its
// resume window) and the websocket.
func (c *conn) close() {
	c.stop(errClientGone)
	ids := slices.Sorted(maps.Keys(c.subs))
	for _, id := range ids {
		c.subs[id].stop(false)
	}
	c.wg.Wait()
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
}
