package cable

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// listenChannel is the channel of `frame listen`: a listen session.
const listenChannel = "Cli::WebhookListenChannel"

// listenParams are the listen channel's parameters in the identifier, in
// the CLI's order: channel, event_codes, skip_endpoints, session_token. A
// member of another JSON type rejects the subscription.
type listenParams struct {
	EventCodes    []string `json:"event_codes"`
	SkipEndpoints bool     `json:"skip_endpoints"`
	SessionToken  string   `json:"session_token"`
}

// listenSub is a subscription holding a listen session.
type listenSub struct {
	c          *conn
	sess       *webhooks.ListenSession
	identifier json.RawMessage
	cancel     context.CancelFunc
	done       chan struct{}
}

// openListen opens (or resumes) the session the identifier asks for and
// answers, in this order, confirm_subscription (the identifier echoed),
// the session's one `session` message, then its events as they come. An
// identifier it cannot read, an unknown event code or a refused session is
// rejected (reject_subscription; the CLI shows nothing, so the server logs
// why).
func (c *conn) openListen(cmd command, id string) subscription {
	var p listenParams
	if err := json.Unmarshal([]byte(id), &p); err != nil {
		return nil
	}
	sess, err := c.h.listen.Open(c.ctx, webhooks.ListenRequest{EventCodes: p.EventCodes,
		SkipEndpoints: p.SkipEndpoints, SessionToken: p.SessionToken})
	if err != nil {
		c.refused("listen session refused", err)
		return nil
	}
	ctx, cancel := context.WithCancel(c.ctx)
	s := &listenSub{c: c, sess: sess, identifier: cmd.Identifier, cancel: cancel, done: make(chan struct{})}
	if c.write(subscriptionStatus{Identifier: cmd.Identifier, Type: typeConfirm}) != nil ||
		c.write(dataFrame{Identifier: cmd.Identifier, Message: sess.Message()}) != nil {
		close(s.done)
		return s // the connection is ending: its close releases the session
	}
	c.wg.Go(func() {
		defer close(s.done)
		s.run(ctx)
	})
	return s
}

// run sends the session's events until the subscription stops; a session
// that cannot go on (its client fell behind, another connection resumed
// it, it ended) disconnects the client, which reconnects and resumes.
func (s *listenSub) run(ctx context.Context) {
	err := s.sess.Run(ctx, func(ctx context.Context, ev *models.ListenEvent) error {
		return s.c.write(dataFrame{Identifier: s.identifier, Message: ev})
	})
	if ctx.Err() != nil {
		return
	}
	switch {
	case errors.Is(err, webhooks.ErrListenFellBehind):
		s.c.disconnect("the client fell behind; reconnect to resume the session")
	case errors.Is(err, webhooks.ErrListenTaken):
		s.c.disconnect("the session was resumed on another connection")
	case errors.Is(err, webhooks.ErrListenEnded):
		s.c.disconnect("the session ended")
	default:
		s.c.refused("listen session stopped", err)
		s.c.disconnect("the session stopped")
	}
}

// listenAction is a message of the listen channel: the CLI's ack.
type listenAction struct {
	Action string `json:"action"`
	models.ListenAck
}

// perform records an ack; other actions, and what cannot be read, are
// ignored as ActionCable ignores them.
func (s *listenSub) perform(data string) {
	var a listenAction
	if json.Unmarshal([]byte(data), &a) != nil || a.Action != "ack" {
		return
	}
	if err := s.sess.Ack(s.c.ctx, a.ListenAck); err != nil {
		s.c.refused("listen ack not recorded", err)
	}
}

// stop ends the subscription: its events stop, and the session ends at
// once when the client unsubscribed, or lives for its resume window when
// the connection ended.
func (s *listenSub) stop(unsubscribed bool) {
	s.cancel()
	<-s.done
	if err := s.sess.Release(s.c.ctx, unsubscribed); err != nil {
		s.c.refused("listen session not released", err)
	}
}

// refused logs why the server refused or stopped something the client
// cannot be told about (ActionCable has no error frames). An error of the
// client's (its input, its credential) is logged at info, the server's as
// an error.
func (c *conn) refused(msg string, err error) {
	e := apierr.From(err)
	if level, ok := e.Logged(); ok {
		c.h.opts.Logger.Log(c.ctx, level, msg, "code", e.Code, "error", err.Error())
		return
	}
	c.h.opts.Logger.Info(msg, "code", e.Code, "reason", e.Message)
}
