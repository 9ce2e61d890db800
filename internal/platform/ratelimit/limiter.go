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
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	modes  [2]*params // the secret key's, [sandbox, production]; nil when off
	client [2]*params // publishable keys' and session secrets', per merchant
	addr   *params    // publishable keys' and session secrets', per client address
	keys   sync.Map   // bucketKey → *bucket
	// addrBuckets counts the per-address entries of keys, which any client
	// can multiply: past maxAddressBuckets the idle ones are dropped.
	addrBuckets atomic.Int64
}

// maxAddressBuckets bounds the per-address buckets one process keeps in
// memory. Dropping one loses at most the Chunk-1 tokens it held (the
// limit only gets stricter) and, for a refused address, costs one lease
// to learn the refusal again.
const maxAddressBuckets = 10_000

// Budget names the bucket a request draws on (the 429 says which).
type Budget string

// Budgets.
const (
	// SecretBudget is the secret key's, per merchant and mode.
	SecretBudget Budget = ""
	// ClientBudget is shared by the publishable keys and session secrets of
	// a merchant and mode.
	ClientBudget Budget = "client"
	// AddressBudget is one client address's share of ClientBudget.
	AddressBudget Budget = "client_address"
)

// bucketKey is one shared bucket: a merchant and mode's budget, which for
// AddressBudget is "client:<address>".
type bucketKey struct {
	scope  store.Scope
	budget string
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
		modes:  [2]*params{newParams(cfg.Sandbox), newParams(cfg.Production)},
		client: [2]*params{newParams(cfg.Client.Sandbox), newParams(cfg.Client.Production)},
		addr:   newParams(cfg.Client.Address)}
}

func (l *Limiter) params(livemode bool) *params {
	if livemode {
		return l.modes[1]
	}
	return l.modes[0]
}

// off reports whether nothing is limited.
func (l *Limiter) off() bool {
	return l.modes[0] == nil && l.modes[1] == nil && l.client[0] == nil && l.client[1] == nil && l.addr == nil
}

// Allow spends one token of scope's secret-key bucket. It returns false and
// how long until a token is available when the bucket is empty. On a
// database error it admits the request (the limiter protects capacity; an
// unreachable database fails the request by itself) and returns the error
// to be logged.
func (l *Limiter) Allow(ctx context.Context, s store.Scope) (ok bool, retryAfter time.Duration, err error) {
	return l.take(ctx, bucketKey{scope: s}, l.params(s.Livemode))
}

// AllowClient spends one token of a publishable key's or session secret's
// request from address: first the address's own bucket, then the
// merchant's client bucket. It reports which budget refused.
func (l *Limiter) AllowClient(ctx context.Context, s store.Scope, address string) (ok bool, retryAfter time.Duration, refused Budget, err error) {
	if l.addr != nil {
		key := bucketKey{scope: s, budget: "client:" + address}
		if ok, wait, err := l.take(ctx, key, l.addr); !ok || err != nil {
			return ok, wait, AddressBudget, err
		}
	}
	p := l.client[0]
	if s.Livemode {
		p = l.client[1]
	}
	ok, wait, err := l.take(ctx, bucketKey{scope: s, budget: string(ClientBudget)}, p)
	return ok, wait, ClientBudget, err
}

// take spends one token of key's bucket, limited by p (nil: no limit).
func (l *Limiter) take(ctx context.Context, key bucketKey, p *params) (ok bool, retryAfter time.Duration, err error) {
	if p == nil {
		return true, 0, nil
	}
	b := l.bucket(key)
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
		tat, granted, err := l.lease(ctx, key, p, now)

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

func (l *Limiter) bucket(key bucketKey) *bucket {
	if b, ok := l.keys.Load(key); ok {
		return b.(*bucket)
	}
	b, loaded := l.keys.LoadOrStore(key, new(bucket))
	if !loaded && strings.HasPrefix(key.budget, "client:") && l.addrBuckets.Add(1) > maxAddressBuckets {
		l.dropIdleAddressBuckets()
	}
	return b.(*bucket)
}

// dropIdleAddressBuckets forgets the per-address buckets no request is
// leasing for, so that clients spreading over many addresses cannot grow
// a process's memory without bound.
func (l *Limiter) dropIdleAddressBuckets() {
	l.keys.Range(func(k, v any) bool {
		key, b := k.(bucketKey), v.(*bucket)
		if !strings.HasPrefix(key.budget, "client:") {
			return true
		}
		b.mu.Lock()
		idle := b.leasing == nil
		b.mu.Unlock()
		if idle {
			l.keys.Delete(k)
			l.addrBuckets.Add(-1)
		}
		return true
	})
}

// leaseSQL takes up to ?chunk tokens from the bucket at ?now (GCRA in
// microseconds): the bucket may be booked up to ?tau ahead of now, each
// token books ?interval. A missing row is a full bucket. granted is the
// number taken (0: none left); tat_us is the bucket's booking after the
// statement. Every operand is cast to bigint: products of small numbers
// would otherwise be computed as integer and could overflow.
const leaseSQL = `
INSERT INTO rate_limit_buckets AS b (merchant_id, livemode, budget, tat_us, granted)
VALUES (?merchant, ?livemode, ?budget, ?now::bigint + ?first::bigint * ?interval::bigint, ?first::bigint)
ON CONFLICT (merchant_id, livemode, budget) DO UPDATE SET
    granted = greatest(0, least(?chunk::bigint,
        (?now::bigint + ?tau::bigint - greatest(b.tat_us, ?now::bigint)) / ?interval::bigint)),
    tat_us = greatest(b.tat_us, ?now::bigint) + ?interval::bigint * greatest(0, least(?chunk::bigint,
        (?now::bigint + ?tau::bigint - greatest(b.tat_us, ?now::bigint)) / ?interval::bigint))
RETURNING tat_us, granted`

type leaseArgs struct {
	Merchant uuid.UUID `bun:"merchant"`
	Livemode bool      `bun:"livemode"`
	Budget   string    `bun:"budget"`
	Now      int64     `bun:"now"`
	First    int64     `bun:"first"`
	Chunk    int64     `bun:"chunk"`
	Interval int64     `bun:"interval"`
	Tau      int64     `bun:"tau"`
}

// lease runs the one statement of a chunk, in the request's context (so it
// counts among the request's statements).
func (l *Limiter) lease(ctx context.Context, key bucketKey, p *params, now int64) (tat, granted int64, err error) {
	s := key.scope
	args := &leaseArgs{Merchant: s.MerchantID, Livemode: s.Livemode, Budget: key.budget, Now: now,
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
			ok, wait, budget, err := l.allowRequest(r, p)
			if err != nil && r.Context().Err() == nil {
				l.logger.WarnContext(r.Context(), "rate limit not checked; request admitted",
					"request_id", httpx.RequestIDFromContext(r.Context()), "error", err)
			}
			if !ok {
				writeError(w, r, l.refusal(p.Scope.Livemode, budget, wait))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// allowRequest spends a token of the budget of the request's credential:
// the secret key its own, every other kind (publishable keys, session
// secrets) the client budget, by client address too.
func (l *Limiter) allowRequest(r *http.Request, p *auth.Principal) (bool, time.Duration, Budget, error) {
	if p.Kind == auth.SecretKey {
		ok, wait, err := l.Allow(r.Context(), p.Scope)
		return ok, wait, SecretBudget, err
	}
	return l.AllowClient(r.Context(), p.Scope, ClientAddress(httpx.Info(r.Context()).RemoteIP))
}

// ClientAddress is the address a client's budget is kept under: the IP
// address, and for IPv6 its /64 network, which one subscriber is usually
// given whole (so that walking through it gains nothing).
func ClientAddress(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// RetryAfterSeconds is wait in whole seconds, rounded up, at least 1.
func RetryAfterSeconds(wait time.Duration) int64 {
	return max(1, int64((wait+time.Second-1)/time.Second))
}

// refusal is the 429 of API-DECISIONS §2 and §8.
// It names the budget that refused, in the message, error_details.data.budget
// and the RateLimit-Budget header: "secret", "client" or "client_address".
func (l *Limiter) refusal(livemode bool, budget Budget, wait time.Duration) *apierr.Error {
	secs := RetryAfterSeconds(wait)
	var lim Limit
	var whose, name string
	switch budget {
	case ClientBudget:
		lim, whose, name = l.client[btoi(livemode)].limit, "the publishable keys and session secrets of this merchant", "client"
	case AddressBudget:
		lim, whose, name = l.addr.limit, "the publishable keys and session secrets of this merchant from this client address", "client_address"
	default:
		lim, whose, name = l.params(livemode).limit, "this merchant's secret key", "secret"
	}
	mode := auth.ModeName(livemode)
	return &apierr.Error{
		Status: http.StatusTooManyRequests,
		Code:   apierr.CodeRateLimited,
		Message: fmt.Sprintf("Too many requests for %s in %s mode (%s budget: %s per second, burst %d); retry after %d s",
			whose, mode, name, strconv.FormatFloat(lim.Rate, 'f', -1, 64), lim.Burst, secs),
		Data:    map[string]any{"mode": mode, "budget": name, "rate": lim.Rate, "burst": lim.Burst, "retry_after": secs},
		Headers: map[string]string{"Retry-After": strconv.FormatInt(secs, 10), "RateLimit-Budget": name},
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
