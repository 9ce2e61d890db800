package webhooks

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// streamBuffer bounds the events waiting for one slow subscriber; past it
// the subscription ends (the client refetches with the events list).
const streamBuffer = 256

// streamRetry is the pause before the listener reconnects.
const streamRetry = time.Second

// StreamEvents streams the caller's new events, as they commit, until ctx
// ends: a dashboard's live feed (the GraphQL subscription). types, when
// given, keeps only those event types. One connection per process listens
// for every subscriber (LISTEN events_created, notified by the events
// trigger); each subscriber reads its events through its own tenant scope.
func (s *Service) StreamEvents(ctx context.Context, types []string) (<-chan *events.Event, error) {
	p, err := auth.Require(ctx, managers...)
	if err != nil {
		return nil, err
	}
	hub := s.hub()
	ids := hub.subscribe(ctx, p.Scope)
	select {
	case <-hub.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	out := make(chan *events.Event)
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	go func() {
		defer close(out)
		for id := range ids {
			evs, errs := s.Events.ByIDs(ctx, []string{id.String()})
			if errs[0] != nil || (len(want) > 0 && !want[evs[0].Type]) {
				continue
			}
			select {
			case out <- evs[0]:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// Close stops the event stream's listener (App.Close).
func (s *Service) Close() {
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.stream != nil {
		s.stream.close()
		s.stream = nil
	}
}

func (s *Service) hub() *eventHub {
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.stream == nil {
		s.stream = newEventHub(s.DB, s.Logger)
	}
	return s.stream
}

// eventHub fans the notifications of one listening connection out to the
// subscribers of each merchant and mode.
type eventHub struct {
	db     *store.DB
	cancel context.CancelFunc
	done   sync.WaitGroup
	logger interface {
		Warn(string, ...any)
	}

	// ready is closed once the hub first listens: a subscription answers
	// only then, so every event committed after it is streamed.
	ready     chan struct{}
	readyOnce sync.Once

	mu   sync.Mutex
	subs map[store.Scope]map[chan uuid.UUID]struct{}
}

func newEventHub(db *store.DB, logger interface{ Warn(string, ...any) }) *eventHub {
	ctx, cancel := context.WithCancel(context.Background())
	h := &eventHub{db: db, cancel: cancel, logger: logger, ready: make(chan struct{}),
		subs: map[store.Scope]map[chan uuid.UUID]struct{}{}}
	h.done.Go(func() { h.run(ctx) })
	return h
}

// subscribe returns the ids of the scope's new events until ctx ends (or
// the subscriber falls too far behind).
func (h *eventHub) subscribe(ctx context.Context, sc store.Scope) <-chan uuid.UUID {
	ch := make(chan uuid.UUID, streamBuffer)
	h.mu.Lock()
	if h.subs[sc] == nil {
		h.subs[sc] = map[chan uuid.UUID]struct{}{}
	}
	h.subs[sc][ch] = struct{}{}
	h.mu.Unlock()
	context.AfterFunc(ctx, func() { h.drop(sc, ch) })
	return ch
}

// close stops listening and ends every subscription.
func (h *eventHub) close() {
	h.cancel()
	h.done.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for ch := range subs {
			close(ch)
		}
	}
	h.subs = map[store.Scope]map[chan uuid.UUID]struct{}{}
}

func (h *eventHub) drop(sc store.Scope, ch chan uuid.UUID) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[sc][ch]; ok {
		delete(h.subs[sc], ch)
		if len(h.subs[sc]) == 0 {
			delete(h.subs, sc)
		}
		close(ch)
	}
}

func (h *eventHub) publish(payload string) {
	parts := strings.Split(payload, "|")
	if len(parts) != 3 {
		return
	}
	m, err1 := uuid.Parse(parts[0])
	id, err2 := uuid.Parse(parts[2])
	if err1 != nil || err2 != nil {
		return
	}
	sc := store.Scope{MerchantID: m, Livemode: parts[1] == "true"}
	h.mu.Lock()
	var slow []chan uuid.UUID
	for ch := range h.subs[sc] {
		select {
		case ch <- id:
		default:
			slow = append(slow, ch)
		}
	}
	h.mu.Unlock()
	for _, ch := range slow {
		h.drop(sc, ch)
	}
}

func (h *eventHub) run(ctx context.Context) {
	for ctx.Err() == nil {
		err := h.listen(ctx)
		if ctx.Err() != nil {
			return
		}
		h.logger.Warn("event stream: listening again", "error", err)
		select {
		case <-ctx.Done():
		case <-time.After(streamRetry):
		}
	}
}

func (h *eventHub) listen(ctx context.Context) error {
	conn, err := h.db.Listen(ctx) // a connection of its own, outside the pool's count
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = conn.Close(cctx)
		cancel()
	}()
	if _, err := conn.Exec(ctx, "LISTEN events_created"); err != nil {
		return err
	}
	h.readyOnce.Do(func() { close(h.ready) })
	return h.receive(ctx, conn)
}

func (h *eventHub) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		h.publish(n.Payload)
	}
}
