// Package ratelimit limits requests per merchant and mode (API-DECISIONS
// §8), across every server process on one database, without a statement per
// request.
//
// Each (merchant, mode) has one token bucket, kept in PostgreSQL as a GCRA
// "theoretical arrival time" (rate_limit_buckets.tat_us): capacity Burst,
// refilled at Rate tokens per second. A process does not ask the database
// for every request: it takes tokens in chunks (one UPSERT takes up to Chunk
// tokens, fewer when the bucket holds fewer) and spends them from memory, so
// the database is hit once per Chunk requests. When the bucket is empty the
// statement says when the next token will be there; the process refuses
// every request of that merchant and mode until then without asking again,
// and the refusal carries that wait as Retry-After.
//
// Semantics across processes. The shared bucket admits at most
// Burst + Rate×Δ tokens in any span Δ. A process spends tokens it took
// earlier, so in addition each process may spend up to Chunk-1 tokens it
// took before the span: across P processes, requests admitted in any span Δ
// are at most Burst + Rate×Δ + P×(Chunk-1). Time is each process's clock:
// clocks apart by δ add at most Rate×δ. Tokens a process holds are not
// available to the others, so a merchant may also be refused while up to
// P×(Chunk-1) tokens sit unspent in other processes; a process that exits
// loses the tokens it held.
//
// The fast path (tokens in hand) is a map load and a mutex; it reads no
// clock and runs no statement.
package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Limiter is one process's view of the shared buckets.
type Limiter struct {
	db     *store.DB
	clock  clock.Clock
	logger *slog.Logger
	modes  [2]*params // [sandbox, production]; nil when off
	keys   sync.Map   // store.Scope → *bucket
}

// bucket is what a process holds of one (merchant, mode)'s shared bucket.
type bucket struct {
	mu sync.Mutex
	// tokens taken from the shared bucket and not spent yet.
	tokens int64
	// blockedUntil (microseconds since the epoch) is when the shared bucket
	// will hold a token again, learnt from the last refused lease; zero when
	// no lease was refused.
	blockedUntil int64
	// leasing is non-nil while one request takes tokens for everyone; it is
	// closed when that lease ends.
	leasing chan struct{}
}

// New returns a limiter for cfg. A nil logger means slog.Default().
func New(db *store.DB, clk clock.Clock, cfg Config, logger *slog.Logger) *Limiter {
	if logger == nil {
		logger = slog.Default()
	}
	return &Limiter{db: db, clock: clk, logger: logger,
		modes: [2]*params{newParams(cfg.Sandbox), newParams(cfg.Production)}}
}

func (l *Limiter) params(livemode bool) *params {
	if livemode {
		return l.modes[1]
	}
	return l.modes[0]
}

// off reports whether no mode is limited.
func (l *Limiter) off() bool { return l.modes[0] == nil && l.modes[1] == nil }

// Allow spends one token of scope's bucket. It returns false and how long
// until a token is available when the bucket is empty. On a database error
// it admits the request (the limiter protects capacity; an unreachable
// database fails the request by itself) and returns the error to be logged.
func (l *Limiter) Allow(ctx context.Context, s store.Scope) (ok bool, retryAfter time.Duration, err error) {
	p := l.params(s.Livemode)
	if p == nil {
		return true, 0, nil
	}
	b := l.bucket(s)
	for {
		b.mu.Lock()
		if b.tokens > 0 {
			b.tokens--
			b.mu.Unlock()
			return true, 0, nil
		}
		var now int64
		haveNow := false
		if b.blockedUntil != 0 {
			now, haveNow = l.clock.Now().UnixMicro(), true
			if now < b.blockedUntil {
				wait := b.blockedUntil - now
				b.mu.Unlock()
				return false, time.Duration(wait) * time.Microsecond, nil
			}
		}
		if ch := b.leasing; ch != nil {
			// Another request is taking tokens: wait for it, then look again.
			b.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return true, 0, ctx.Err()
			}
		}
		ch := make(chan struct{})
		b.leasing = ch
		b.mu.Unlock()

		if !haveNow {
			now = l.clock.Now().UnixMicro()
		}
		tat, granted, err := l.lease(ctx, s, p, now)

		b.mu.Lock()
		b.leasing = nil
		close(ch)
		switch {
		case err != nil:
			b.mu.Unlock()
			return true, 0, err
		case granted > 0:
			b.tokens += granted - 1
			b.blockedUntil = 0
			b.mu.Unlock()
			return true, 0, nil
		default:
			// The next token conforms when tat + interval - tau <= now.
			b.blockedUntil = tat + p.interval - p.tau
			wait := max(b.blockedUntil-now, 1)
			b.mu.Unlock()
			return false, time.Duration(wait) * time.Microsecond, nil
		}
	}
}

func (l *Limiter) bucket(s store.Scope) *bucket {
	if b, ok := l.keys.Load(s); ok {
		return b.(*bucket)
	}
	b, _ := l.keys.LoadOrStore(s, new(bucket))
	return b.(*bucket)
}

// leaseSQL takes up to ?chunk tokens from the bucket at ?now (GCRA in
// microseconds): the bucket may be booked up to ?tau ahead of now, each
// token books ?interval. A missing row is a full bucket. granted is the
// number taken (0: none left); tat_us is the bucket's booking after the
// statement. Every operand is cast to bigint: products of small numbers
// would otherwise be computed as integer and could overflow.
const leaseSQL = `
INSERT INTO rate_limit_buckets AS b (merchant_id, livemode, tat_us, granted)
VALUES (?merchant, ?livemode, ?now::bigint + ?first::bigint * ?interval::bigint, ?first::bigint)
ON CONFLICT (merchant_id, livemode) DO UPDATE SET
    granted = greatest(0, least(?chunk::bigint,
        (?now::bigint + ?tau::bigint - greatest(b.tat_us, ?now::bigint)) / ?interval::bigint)),
    tat_us = greatest(b.tat_us, ?now::bigint) + ?interval::bigint * greatest(0, least(?chunk::bigint,
        (?now::bigint + ?tau::bigint - greatest(b.tat_us, ?now::bigint)) / ?interval::bigint))
RETURNING tat_us, granted`

type leaseArgs struct {
	Merchant uuid.UUID `bun:"merchant"`
	Livemode bool      `bun:"livemode"`
	Now      int64     `bun:"now"`
	First    int64     `bun:"first"`
	Chunk    int64     `bun:"chunk"`
	Interval int64     `bun:"interval"`
	Tau      int64     `bun:"tau"`
}

// lease runs the one statement of a chunk, in the request's context (so it
// counts among the request's statements).
func (l *Limiter) lease(ctx context.Context, s store.Scope, p *params, now int64) (tat, granted int64, err error) {
	args := &leaseArgs{Merchant: s.MerchantID, Livemode: s.Livemode, Now: now,
		First: min(p.chunk, p.burst), Chunk: p.chunk, Interval: p.interval, Tau: p.tau}
	if err := l.db.Bun.NewRaw(leaseSQL, args).Scan(ctx, &tat, &granted); err != nil {
		return 0, 0, fmt.Errorf("ratelimit: lease: %w", err)
	}
	return tat, granted, nil
}

// Middleware limits authenticated requests; it runs after authentication.
// Anonymous requests pass (they are not any merchant's). A refusal is
// written by writeError: 429 rate_limited with Retry-After in whole
// seconds, at least 1. With every limit off it is no middleware at all.
func (l *Limiter) Middleware(writeError func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	if l.off() {
		return func(next http.Handler) http.Handler { return next }
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := auth.FromContext(r.Context())
			if p == nil {
				next.ServeHTTP(w, r)
				return
			}
			ok, wait, err := l.Allow(r.Context(), p.Scope)
			if err != nil && r.Context().Err() == nil {
				l.logger.WarnContext(r.Context(), "rate limit not checked; request admitted",
					"request_id", httpx.RequestIDFromContext(r.Context()), "error", err)
			}
			if !ok {
				writeError(w, r, l.refusal(p.Scope.Livemode, wait))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// RetryAfterSeconds is wait in whole seconds, rounded up, at least 1.
func RetryAfterSeconds(wait time.Duration) int64 {
	return max(1, int64((wait+time.Second-1)/time.Second))
}

// refusal is the 429 of API-DECISIONS §2 and §8.
func (l *Limiter) refusal(livemode bool, wait time.Duration) *apierr.Error {
	secs := RetryAfterSeconds(wait)
	lim := l.params(livemode).limit
	mode := auth.ModeName(livemode)
	return &apierr.Error{
		Status: http.StatusTooManyRequests,
		Code:   apierr.CodeRateLimited,
		Message: fmt.Sprintf("Too many requests for this merchant in %s mode (%s per second, burst %d); retry after %d s",
			mode, strconv.FormatFloat(lim.Rate, 'f', -1, 64), lim.Burst, secs),
		Data:    map[string]any{"mode": mode, "rate": lim.Rate, "burst": lim.Burst, "retry_after": secs},
		Headers: map[string]string{"Retry-After": strconv.FormatInt(secs, 10)},
	}
}
