// Package notify fans the notifications of one PostgreSQL channel out to
// the subscribers of this process. Every server process listens on the
// channel for itself, so a notification sent in any process's transaction
// (a trigger's, at commit) reaches the subscribers of every process, in
// commit order. One connection per hub listens for all its subscribers.
package notify

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// retryAfter is the pause before the listener connects again.
const retryAfter = time.Second

// ErrFellBehind ends a subscription whose subscriber let more than the
// hub's buffer of notifications wait.
var ErrFellBehind = errors.New("notify: the subscriber fell behind")

// ErrListenerLost ends a subscription when the hub lost its listening
// connection (with Config.EndOnLoss): notifications sent meanwhile were
// missed, and the subscriber must catch up from the database.
var ErrListenerLost = errors.New("notify: the listening connection was lost")

// ErrClosed ends every subscription when the hub closes.
var ErrClosed = errors.New("notify: closed")

// Config is what a hub listens to and how it treats its subscribers.
type Config[K comparable, V any] struct {
	// Channel is the PostgreSQL channel listened to.
	Channel string
	// Parse reads a payload: the key of the subscribers it is for, and
	// the value they receive. A payload it refuses is dropped.
	Parse func(payload string) (K, V, bool)
	// Buffer bounds the values waiting for one subscriber; one more ends
	// the subscription with ErrFellBehind.
	Buffer int
	// EndOnLoss ends every subscription when the listening connection
	// fails (ErrListenerLost); without it the hub listens again and
	// subscribers miss what was sent meanwhile.
	EndOnLoss bool
	Logger    *slog.Logger
}

// Hub is one channel's listener and its subscribers.
type Hub[K comparable, V any] struct {
	db     *store.DB
	cfg    Config[K, V]
	cancel context.CancelFunc
	done   sync.WaitGroup

	mu   sync.Mutex
	subs map[K]map[*Subscription[V]]struct{}
	// listening is true while the connection listens; ready is closed
	// when it starts to. A subscription is made only while it listens, so
	// it receives every notification committed after it was made.
	listening bool
	ready     chan struct{}
	closed    bool
}

// Subscription receives the values sent to its key until it ends.
type Subscription[V any] struct {
	// C delivers the values in the order they were committed; it is
	// closed when the subscription ends.
	C <-chan V

	c    chan V
	done chan struct{}
	err  error // why it ended, set before done closes
}

// Done is closed when the subscription ends (its context, a fall behind,
// a lost listener, the hub closing), before C is drained.
func (s *Subscription[V]) Done() <-chan struct{} { return s.done }

// Err is why the subscription ended (nil while it runs).
func (s *Subscription[V]) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// New starts a hub listening on cfg.Channel with a connection of db's
// pool, taken out of the pool for good.
func New[K comparable, V any](db *store.DB, cfg Config[K, V]) *Hub[K, V] {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &Hub[K, V]{db: db, cfg: cfg, cancel: cancel, ready: make(chan struct{}),
		subs: map[K]map[*Subscription[V]]struct{}{}}
	h.done.Go(func() { h.run(ctx) })
	return h
}

// Subscribe receives the values sent to key from now on, until ctx ends.
// It waits until the hub listens (or ctx ends).
func (h *Hub[K, V]) Subscribe(ctx context.Context, key K) (*Subscription[V], error) {
	for {
		if err := h.WaitListening(ctx); err != nil {
			return nil, err
		}
		s, err := h.SubscribeNow(ctx, key)
		if !errors.Is(err, ErrListenerLost) { // lost again since: wait for it anew
			return s, err
		}
	}
}

// WaitListening waits until the hub listens (or ctx ends, or it closes).
func (h *Hub[K, V]) WaitListening(ctx context.Context) error {
	for {
		h.mu.Lock()
		closed, listening, ready := h.closed, h.listening, h.ready
		h.mu.Unlock()
		switch {
		case closed:
			return ErrClosed
		case listening:
			return nil
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SubscribeNow is Subscribe without waiting: while the hub does not
// listen, it fails with ErrListenerLost.
func (h *Hub[K, V]) SubscribeNow(ctx context.Context, key K) (*Subscription[V], error) {
	c := make(chan V, h.cfg.Buffer)
	s := &Subscription[V]{C: c, c: c, done: make(chan struct{})}
	h.mu.Lock()
	switch {
	case h.closed:
		h.mu.Unlock()
		return nil, ErrClosed
	case !h.listening:
		h.mu.Unlock()
		return nil, ErrListenerLost
	}
	if h.subs[key] == nil {
		h.subs[key] = map[*Subscription[V]]struct{}{}
	}
	h.subs[key][s] = struct{}{}
	h.mu.Unlock()
	context.AfterFunc(ctx, func() { h.end(key, s, ctx.Err()) })
	return s, nil
}

// setListening records whether the connection listens, waking the
// subscribers waiting for it.
func (h *Hub[K, V]) setListening(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if on == h.listening {
		return
	}
	h.listening = on
	if on {
		close(h.ready)
	} else {
		h.ready = make(chan struct{})
	}
}

// Close stops listening and ends every subscription (ErrClosed). Closing
// again does nothing.
func (h *Hub[K, V]) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	h.done.Wait()
	h.mu.Lock()
	if !h.listening {
		close(h.ready) // wakes the waiting subscribers, which find it closed
	}
	h.mu.Unlock()
	h.endAll(ErrClosed)
}

func (h *Hub[K, V]) end(key K, s *Subscription[V], why error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[key][s]; ok {
		h.endLocked(key, s, why)
	}
}

func (h *Hub[K, V]) endLocked(key K, s *Subscription[V], why error) {
	delete(h.subs[key], s)
	if len(h.subs[key]) == 0 {
		delete(h.subs, key)
	}
	s.err = why
	close(s.done)
	close(s.c)
}

func (h *Hub[K, V]) endAll(why error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, subs := range h.subs {
		for s := range subs {
			h.endLocked(key, s, why)
		}
	}
}

func (h *Hub[K, V]) publish(payload string) {
	key, v, ok := h.cfg.Parse(payload)
	if !ok {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[key] {
		select {
		case s.c <- v:
		default:
			h.endLocked(key, s, ErrFellBehind)
		}
	}
}

func (h *Hub[K, V]) run(ctx context.Context) {
	for ctx.Err() == nil {
		err := h.listen(ctx)
		h.setListening(false)
		if ctx.Err() != nil {
			return
		}
		if h.cfg.EndOnLoss {
			h.endAll(ErrListenerLost)
		}
		h.cfg.Logger.Warn("notify: listening again", "channel", h.cfg.Channel, "error", err)
		_ = clock.Sleep(ctx, retryAfter) // an ended ctx ends the loop
	}
}

func (h *Hub[K, V]) listen(ctx context.Context) error {
	conn, err := h.db.ListenOn(ctx, h.cfg.Channel) // a connection of its own, outside the pool's count
	if err != nil {
		return err
	}
	defer store.CloseListener(conn)
	h.setListening(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		h.publish(n.Payload)
	}
}
