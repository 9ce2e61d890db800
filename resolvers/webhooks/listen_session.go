package webhooks

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/notify"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// Why a session's Run ends, besides its context.
var (
	// ErrListenTaken: a reconnect resumed the session on another
	// connection, which holds it now.
	ErrListenTaken = errors.New("webhooks: the listen session was resumed on another connection")
	// ErrListenEnded: the session ended (its expiry passed while this
	// connection could not renew it).
	ErrListenEnded = errors.New("webhooks: the listen session ended")
	// ErrListenFellBehind: the client let more events wait than the
	// session buffers; it should reconnect, and resume, to be sent them.
	ErrListenFellBehind = errors.New("webhooks: the listen session's client fell behind")
)

// listenChannel is the PostgreSQL channel of the sessions' notifications
// (migrations/00030_listen_sessions.up.sql).
const listenChannel = "listen_deliveries"

// listenNote is one notification of a session: a delivery queued for it,
// or a connection that took it over.
type listenNote struct {
	delivery uuid.UUID
	takenBy  uuid.UUID
}

// parseListenNote reads "<endpoint>|d|<delivery>" and
// "<endpoint>|t|<holder>".
func parseListenNote(payload string) (uuid.UUID, listenNote, bool) {
	parts := strings.Split(payload, "|")
	if len(parts) != 3 {
		return uuid.UUID{}, listenNote{}, false
	}
	ep, err1 := uuid.Parse(parts[0])
	id, err2 := uuid.Parse(parts[2])
	if err1 != nil || err2 != nil {
		return uuid.UUID{}, listenNote{}, false
	}
	switch parts[1] {
	case "d":
		return ep, listenNote{delivery: id}, true
	case "t":
		return ep, listenNote{takenBy: id}, true
	}
	return uuid.UUID{}, listenNote{}, false
}

func takenPayload(session, holder uuid.UUID) string {
	return session.String() + "|t|" + holder.String()
}

// ListenSession is one connection's hold on a listen session: what it
// sends the CLI (Run) and what the CLI acknowledges (Ack). Its memory is
// bounded whatever the client does: at most ListenConfig.InFlight events
// sent and not acknowledged, ListenConfig.Buffer notified and not yet
// sent, and the ids of the last recentlySent sent; the events themselves
// wait in the database.
type ListenSession struct {
	// ID is the session's (and its endpoint's) id; Secret signs its
	// events; Token resumes it; Replayed says Open resumed it.
	ID       uuid.UUID
	Secret   string
	Token    string
	Replayed bool

	ls     *ListenSessions
	scope  store.Scope
	holder uuid.UUID
	sub    *notify.Subscription[listenNote]
	cancel context.CancelFunc

	mu       sync.Mutex
	inFlight map[uuid.UUID]struct{} // sent, not yet acknowledged
	room     chan struct{}          // signalled when an ack frees room
	// sent are the deliveries this connection sent last (at most
	// recentlySent of them, oldest first in order): one the replay sent
	// and its notification announces again is not sent twice, even when
	// its ack is being recorded meanwhile.
	sent  map[uuid.UUID]struct{}
	order []uuid.UUID
}

// recentlySent bounds the deliveries a connection remembers sending: far
// more than one notification batch and the events in flight, which are
// what can announce again a delivery it sent.
const recentlySent = 4096

// Message is what the session's subscription is told once per subscribe.
func (s *ListenSession) Message() *models.ListenSessionMessage {
	return &models.ListenSessionMessage{Type: "session", Secret: s.Secret, EndpointID: s.ID,
		SessionToken: s.Token, Replayed: s.Replayed}
}

// Run sends the session's events until ctx ends or the session cannot go
// on (ErrListenTaken, ErrListenEnded, ErrListenFellBehind, a failed
// send): first every delivery still waiting for an acknowledgement (a
// resumed session's missed events, in the order they were queued), then
// each new one as its transaction commits, in commit order. It renews the
// session while it runs.
func (s *ListenSession) Run(ctx context.Context, send func(context.Context, *models.ListenEvent) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go s.renewWhile(ctx, cancel)
	err := s.replay(ctx, send)
	for err == nil {
		select {
		case <-ctx.Done():
			err = context.Cause(ctx)
		case n, ok := <-s.sub.C:
			if !ok {
				return s.subscriptionEnded()
			}
			err = s.forward(ctx, s.drain(n), send)
		}
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return err
}

// drain is n and the notes already waiting behind it, up to a batch.
func (s *ListenSession) drain(n listenNote) []listenNote {
	notes := []listenNote{n}
	for len(notes) < listenPage {
		select {
		case m, ok := <-s.sub.C:
			if !ok {
				return notes
			}
			notes = append(notes, m)
		default:
			return notes
		}
	}
	return notes
}

// subscriptionEnded says why the session's notifications stopped.
func (s *ListenSession) subscriptionEnded() error {
	switch err := s.sub.Err(); {
	case errors.Is(err, notify.ErrFellBehind), errors.Is(err, notify.ErrListenerLost):
		return ErrListenFellBehind // either way, the client resumes to be sent what it missed
	default:
		return err
	}
}

// reserve takes room for one more event in flight, waiting for an ack
// while there is none. Waiting lets the notifications pile up: past the
// buffer the subscription ends, and so does the wait.
func (s *ListenSession) reserve(ctx context.Context, id uuid.UUID) (bool, error) {
	for {
		s.mu.Lock()
		if _, sent := s.sent[id]; sent {
			s.mu.Unlock()
			return false, nil // already sent (by the replay)
		}
		if len(s.inFlight) < s.ls.cfg.InFlight {
			s.inFlight[id] = struct{}{}
			s.remember(id)
			s.mu.Unlock()
			return true, nil
		}
		s.mu.Unlock()
		select {
		case <-s.room:
		case <-s.sub.Done():
			return false, s.subscriptionEnded()
		case <-ctx.Done():
			return false, context.Cause(ctx)
		}
	}
}

// remember records id as sent, forgetting the oldest past recentlySent
// (s.mu held).
func (s *ListenSession) remember(id uuid.UUID) {
	if len(s.order) == recentlySent {
		delete(s.sent, s.order[0])
		s.order = s.order[1:]
	}
	s.sent[id] = struct{}{}
	s.order = append(s.order, id)
}

// settle removes id from the events in flight; false when it was not one
// (never sent on this connection, or acknowledged already).
func (s *ListenSession) settle(id uuid.UUID) bool {
	s.mu.Lock()
	_, ok := s.inFlight[id]
	delete(s.inFlight, id)
	s.mu.Unlock()
	if ok {
		select {
		case s.room <- struct{}{}:
		default:
		}
	}
	return ok
}

// renewWhile renews the session every ListenConfig.Renew while ctx lives,
// ending the run when the session is no longer this connection's.
func (s *ListenSession) renewWhile(ctx context.Context, stop context.CancelCauseFunc) {
	t := time.NewTicker(s.ls.cfg.Renew)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.ls.renew(ctx, s); err != nil {
				stop(err)
				return
			}
		}
	}
}
