// Package requestlog is the live request log of the merchants' sandboxes
// (what `stripe logs tail` gives): each finished request as its method,
// path, status, duration and request id, never a header, the query or a
// body. It reaches a tailer whatever server process served the request:
// processes publish the requests of a tailed sandbox on a PostgreSQL
// channel, and each process hands what it hears to its own tailers.
//
// A process publishes only while some process tails the sandbox: every
// process with tailers announces it on the same channel when the first
// tailer comes and every tailHeartbeat after; the others publish for
// tailForget after they last heard it. An untailed sandbox costs nothing.
package requestlog

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/platform/notify"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Record is one request of the log.
type Record struct {
	RequestID  string  `json:"request_id"`
	Method     string  `json:"method"`
	Path       string  `json:"path"`
	Status     int     `json:"status"`
	DurationMS float64 `json:"duration_ms"`
}

// Channel is the PostgreSQL channel of the log.
const Channel = "request_log"

const (
	// tailHeartbeat is how often a process announces its tailed sandboxes.
	tailHeartbeat = 20 * time.Second
	// tailForget is how long a process publishes after the last
	// announcement it heard.
	tailForget = 3 * tailHeartbeat
	// maxPath bounds a path as published (a notification holds 8000
	// bytes).
	maxPath = 1024
	// queued bounds the records waiting to be published; past it records
	// are dropped (and counted), never waited for.
	queued = 4096
	// publishBatch bounds the records one statement publishes.
	publishBatch = 256
	// buffer bounds the records waiting for one tailer; past it the
	// tailer is disconnected.
	buffer = 256
)

// note is a notification of the channel: a record of a sandbox, or an
// announcement that a process tails it.
type note struct {
	scope  store.Scope
	tailed bool
	record Record
}

// announcements is the key the feed itself listens to: every "tailed"
// note, whatever its sandbox.
var announcements = store.Scope{}

// Feed is the process's side of the log.
type Feed struct {
	db     *store.DB
	clock  clock.Clock
	logger *slog.Logger
	hub    *notify.Hub[store.Scope, note]
	out    chan string
	cancel context.CancelFunc
	done   sync.WaitGroup

	mu    sync.Mutex
	heard map[store.Scope]time.Time // last announcement heard, by sandbox
	local map[store.Scope]int       // this process's tailers

	// Dropped counts the records not published because the queue was full.
	Dropped atomic.Int64
}

// New starts the process's feed: its listener, its publisher and its
// announcements. Close stops them.
func New(db *store.DB, clk clock.Clock, logger *slog.Logger) *Feed {
	if logger == nil {
		logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	f := &Feed{db: db, clock: clk, logger: logger, out: make(chan string, queued), cancel: cancel,
		heard: map[store.Scope]time.Time{}, local: map[store.Scope]int{}}
	f.hub = notify.New(db, notify.Config[store.Scope, note]{Channel: Channel, Parse: parse, Buffer: buffer,
		EndOnLoss: true, Logger: logger})
	f.done.Go(func() { f.hear(ctx) })
	f.done.Go(func() { f.publish(ctx) })
	f.done.Go(func() { f.announceEvery(ctx) })
	return f
}

// Close stops the feed and ends its tailers (nil: nothing to stop).
func (f *Feed) Close() {
	if f == nil {
		return
	}
	f.cancel()
	f.hub.Close()
	f.done.Wait()
}

// Observe publishes a finished request of a tailed sandbox (httpx.Log's
// observer). It never blocks: past the queue, the record is dropped.
func (f *Feed) Observe(e httpx.Entry) {
	if e.MerchantID == "" || e.Livemode {
		return
	}
	m, err := uuid.Parse(e.MerchantID)
	if err != nil {
		return
	}
	sc := store.Scope{MerchantID: m}
	if !f.tailed(sc) {
		return
	}
	path := e.Path
	if len(path) > maxPath {
		path = path[:maxPath]
	}
	rec, err := json.Marshal(Record{RequestID: e.RequestID, Method: e.Method, Path: strings.ToValidUTF8(path, "\uFFFD"),
		Status: e.Status, DurationMS: e.DurationMS})
	if err != nil {
		return
	}
	select {
	case f.out <- scopePrefix(sc) + "r|" + string(rec):
	default:
		f.Dropped.Add(1)
	}
}

// Tail receives the sandbox's requests, from every process, until ctx
// ends or the tailer falls behind (the channel closes).
func (f *Feed) Tail(ctx context.Context, sc store.Scope) (<-chan *Record, error) {
	sub, err := f.hub.Subscribe(ctx, sc)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.local[sc]++
	first := f.local[sc] == 1
	f.heard[sc] = f.clock.Now() // this process publishes at once
	f.mu.Unlock()
	if first {
		f.announce(sc)
	}
	out := make(chan *Record)
	go func() {
		defer close(out)
		defer func() {
			f.mu.Lock()
			if f.local[sc]--; f.local[sc] <= 0 {
				delete(f.local, sc)
			}
			f.mu.Unlock()
		}()
		for n := range sub.C {
			select {
			case out <- &n.record:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// tailed reports whether some process tails the sandbox, as last heard.
func (f *Feed) tailed(sc store.Scope) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	at, ok := f.heard[sc]
	if !ok {
		return false
	}
	if f.clock.Now().Sub(at) > tailForget {
		delete(f.heard, sc)
		return false
	}
	return true
}

// hear records the announcements of every process.
func (f *Feed) hear(ctx context.Context) {
	for ctx.Err() == nil {
		sub, err := f.hub.Subscribe(ctx, announcements)
		if err != nil {
			return
		}
		for n := range sub.C {
			f.mu.Lock()
			f.heard[n.scope] = f.clock.Now()
			f.mu.Unlock()
		}
	}
}

// announceEvery announces the sandboxes this process tails.
func (f *Feed) announceEvery(ctx context.Context) {
	t := time.NewTicker(tailHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f.mu.Lock()
			scopes := make([]store.Scope, 0, len(f.local))
			for sc := range f.local {
				scopes = append(scopes, sc)
			}
			f.mu.Unlock()
			for _, sc := range scopes {
				f.announce(sc)
			}
		}
	}
}

func (f *Feed) announce(sc store.Scope) {
	select {
	case f.out <- scopePrefix(sc) + "t":
	default:
		f.Dropped.Add(1)
	}
}

// publish sends the queued notifications, many per statement, on a
// connection of the pool.
func (f *Feed) publish(ctx context.Context) {
	for {
		var batch []string
		select {
		case <-ctx.Done():
			return
		case p := <-f.out:
			batch = append(batch, p)
		}
	more:
		for len(batch) < publishBatch {
			select {
			case p := <-f.out:
				batch = append(batch, p)
			default:
				break more
			}
		}
		if _, err := f.db.Pool.Exec(ctx, "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p", Channel, batch); err != nil &&
			ctx.Err() == nil {
			f.logger.Warn("request log: not published", "records", len(batch), "error", err)
		}
	}
}

func scopePrefix(sc store.Scope) string {
	return sc.MerchantID.String() + "|" + strconv.FormatBool(sc.Livemode) + "|"
}

// parse reads "<merchant>|<livemode>|t" (an announcement) and
// "<merchant>|<livemode>|r|<record>".
func parse(payload string) (store.Scope, note, bool) {
	parts := strings.SplitN(payload, "|", 4)
	if len(parts) < 3 {
		return store.Scope{}, note{}, false
	}
	m, err := uuid.Parse(parts[0])
	if err != nil {
		return store.Scope{}, note{}, false
	}
	sc := store.Scope{MerchantID: m, Livemode: parts[1] == "true"}
	switch {
	case parts[2] == "t" && len(parts) == 3:
		return announcements, note{scope: sc, tailed: true}, true
	case parts[2] == "r" && len(parts) == 4:
		var r Record
		if json.Unmarshal([]byte(parts[3]), &r) != nil {
			return store.Scope{}, note{}, false
		}
		return sc, note{scope: sc, record: r}, true
	}
	return store.Scope{}, note{}, false
}
