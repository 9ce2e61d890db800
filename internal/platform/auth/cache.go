package auth

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// The credential cache keeps, per process, the principals of credentials
// that authenticated successfully, so that most requests run no statement
// to authenticate. It never holds a plaintext credential: entries are keyed
// by the credential's SHA-256, the same hash the database stores.
//
// A cached credential stops working in every process as soon as it is
// revoked, replaced or its merchant changes:
//
//   - Every change that ends or shortens a credential (RevokeKey, RotateKey,
//     RevokeSessionSecrets) announces the hash of each credential it changed
//     on the PostgreSQL channel RevocationChannel, in the statement that
//     changes it. NOTIFY is transactional: the announcement is delivered at
//     commit, and never for a change rolled back.
//   - Every process listens on that channel on one dedicated connection and
//     drops what it hears of. While that connection is down the cache is
//     emptied and bypassed (every request asks the database, as without a
//     cache) until the listener is back: notifications sent while it was
//     down are lost, so nothing cached before can be trusted.
//   - The process that makes the change drops the credentials from its own
//     cache in the same request, so its very next request is refused
//     without waiting for the notification to come back.
//   - A cached key or secret keeps its own expiry (a rotated key's grace
//     period, a session secret's 30 minutes), compared with the clock on
//     every hit: a cached credential never outlives its expires_at.
//   - A session secret of an account on a test clock is judged on the
//     clock's time, which an advance moves without a notification: it is
//     never cached (every request reads it with its clock).
//   - Entries are trusted for TTL at most, a backstop for changes made
//     without a notification (SQL typed by hand, a half-open listener
//     connection TCP has not noticed yet).
//
// Failed authentications are not cached: a credential the database refuses
// is asked about again on the next request.
//
// Merchants: the principal carries the merchant (name, products, disabled
// capabilities). Nothing changes a merchant today (`server merchants` only
// creates and lists); a change of a merchant must call NotifyMerchantChanged
// in its transaction, which drops every cached credential of the merchant
// in every process.

// RevocationChannel is the PostgreSQL channel on which changes to
// credentials are announced. A payload is "k:" and the credential's hash in
// hex (that credential changed), or "m:" and a merchant id (every credential
// of the merchant); anything else empties the cache.
const RevocationChannel = "credentials_revoked"

const (
	keyPayload      = "k:"
	merchantPayload = "m:"
)

// Defaults of the credential cache (serve's flags).
const (
	DefaultCacheTTL  = 30 * time.Second
	DefaultCacheSize = 10_000
)

// Environment variables of the cache's serve flags (RegisterFlags).
const (
	EnvCacheTTL  = "CREDENTIAL_CACHE_TTL"
	EnvCacheSize = "CREDENTIAL_CACHE_SIZE"
)

// CacheConfig configures the credential cache. Its zero value turns the
// cache off (every request authenticates against the database).
type CacheConfig struct {
	// TTL is how long a verified credential is trusted without asking the
	// database again; 0 turns the cache off.
	TTL time.Duration
	// Size is how many credentials a process keeps, least recently used
	// first out; 0 means DefaultCacheSize.
	Size int
	// BeforeConnect, when set, runs before each attempt to (re)connect the
	// listener; an error counts as a failed attempt, retried with backoff,
	// and while it blocks the listener stays down (the cache bypassed).
	// It lets whoever builds the cache decide when the listener may
	// connect: the tests hold it down with it to see the cache bypassed
	// and then caught up; serve leaves it nil.
	BeforeConnect func(context.Context) error
}

// DefaultCacheConfig is what `serve` uses unless told otherwise.
func DefaultCacheConfig() CacheConfig {
	return CacheConfig{TTL: DefaultCacheTTL, Size: DefaultCacheSize}
}

// Off reports whether the cache is turned off.
func (c CacheConfig) Off() bool { return c.TTL <= 0 }

// RegisterFlags adds the cache's flags to fs; each flag's default is its
// environment variable's value when set (getenv, e.g. os.Getenv), else the
// value already in c.
func (c *CacheConfig) RegisterFlags(fs *flag.FlagSet, getenv func(string) string) error {
	f := flagenv.New(fs, getenv)
	f.Duration(&c.TTL, "credential-cache-ttl", EnvCacheTTL,
		"how long a verified credential is trusted without asking the database; revocations reach "+
			"every server at once through LISTEN/NOTIFY, this bounds anything else (0 = no cache)")
	f.Int(&c.Size, "credential-cache-size", EnvCacheSize,
		"how many verified credentials each server process keeps (0 = "+fmt.Sprint(DefaultCacheSize)+")")
	return f.Err()
}

// Validate refuses negative values.
func (c CacheConfig) Validate() error {
	switch {
	case c.TTL < 0:
		return fmt.Errorf("auth: credential cache TTL must be >= 0, got %s", c.TTL)
	case c.Size < 0:
		return fmt.Errorf("auth: credential cache size must be >= 0, got %d", c.Size)
	}
	return nil
}

// CredentialCache is one process's cache of verified credentials and the
// listener that keeps it true. A nil *CredentialCache is a cache that is
// off: every method may be called on it.
type CredentialCache struct {
	db     *store.DB
	clock  clock.Clock
	ttl    time.Duration
	logger *slog.Logger
	lru    *lru.Cache[[32]byte, *cached]

	// mu orders inserts against invalidations: an invalidation bumps gen
	// and drops entries under mu, and an insert happens under mu only when
	// gen is still what it was before the database was read. So a
	// credential read before a revocation was heard of is never cached
	// after it.
	mu        sync.Mutex
	gen       atomic.Uint64
	listening atomic.Bool
	pid       atomic.Uint32

	hits, misses, notifications, connects atomic.Uint64

	// beforeConnect is CacheConfig.BeforeConnect.
	beforeConnect func(context.Context) error

	cancel context.CancelFunc
	done   chan struct{}
}

// cached is what a hit needs: the principal, and what bounds its validity.
type cached struct {
	principal Principal
	expires   time.Time // the credential's own expiry; zero: none
	loaded    time.Time // when the database said it was valid (for the TTL)
	// onClock: a session secret judged on a test clock's time, which
	// moves unannounced: never cached.
	onClock bool
}

// NewCredentialCache starts the credential cache of a process: it returns
// at once and listens in the background; until the listener is up the
// cache is bypassed. It returns nil (no cache) when cfg is off. Close stops
// the listener.
func NewCredentialCache(db *store.DB, clk clock.Clock, cfg CacheConfig, logger *slog.Logger) *CredentialCache {
	if cfg.Off() {
		return nil
	}
	if logger == nil {
		logger = slog.Default()
	}
	size := cfg.Size
	if size <= 0 {
		size = DefaultCacheSize
	}
	l, err := lru.New[[32]byte, *cached](size)
	if err != nil {
		panic("auth: " + err.Error()) // only for a size <= 0
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &CredentialCache{db: db, clock: clk, ttl: cfg.TTL, logger: logger, lru: l,
		beforeConnect: cfg.BeforeConnect, cancel: cancel, done: make(chan struct{})}
	go c.listen(ctx)
	return c
}

// Close stops the listener, closes its connection and empties the cache.
// Call it before closing the database.
func (c *CredentialCache) Close() {
	if c == nil {
		return
	}
	c.cancel()
	<-c.done
}

// CacheStats describe a cache at one moment.
type CacheStats struct {
	// Listening is whether the listener is connected: only then is the
	// cache used.
	Listening bool
	// ListenerPID is the PostgreSQL backend of the listener (0 while down).
	ListenerPID uint32
	Entries     int
	// Hits and Misses count authentications answered from the cache and
	// from the database (misses include those made while the cache was
	// bypassed).
	Hits, Misses uint64
	// Notifications counts the notifications applied; Connects the times
	// the listener connected (1 + reconnections).
	Notifications, Connects uint64
}

// Stats returns the cache's counters (the zero value for a nil cache).
func (c *CredentialCache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	return CacheStats{Listening: c.listening.Load(), ListenerPID: c.pid.Load(), Entries: c.lru.Len(),
		Hits: c.hits.Load(), Misses: c.misses.Load(), Notifications: c.notifications.Load(),
		Connects: c.connects.Load()}
}

// begin returns the token an insert must present: take it before reading
// the database.
func (c *CredentialCache) begin() uint64 {
	if c == nil {
		return 0
	}
	return c.gen.Load()
}

// lookup answers from the cache. found is false when the database must be
// asked (no entry, an entry older than the TTL, or the cache bypassed);
// otherwise valid says whether the credential is still good at now.
func (c *CredentialCache) lookup(h [32]byte, now time.Time) (p *Principal, found, valid bool) {
	if c == nil {
		return nil, false, false
	}
	if !c.listening.Load() {
		c.misses.Add(1)
		return nil, false, false
	}
	e, ok := c.lru.Get(h)
	if !ok || now.Sub(e.loaded) >= c.ttl || now.Before(e.loaded) {
		c.misses.Add(1)
		return nil, false, false
	}
	c.hits.Add(1)
	if !e.expires.IsZero() && !now.Before(e.expires) {
		// Expired on the clock. Expiry only ever moves earlier (rotation
		// shortens it, revocation ends it), so the entry can answer "no"
		// until the TTL drops it.
		return nil, true, false
	}
	cp := e.principal
	return &cp, true, true
}

// put caches a credential the database has just said is valid, unless an
// invalidation happened since token was taken or the listener is down.
func (c *CredentialCache) put(token uint64, h [32]byte, e *cached) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listening.Load() && c.gen.Load() == token {
		c.lru.Add(h, e)
	}
}

// forget drops one credential (the database refused it).
func (c *CredentialCache) forget(h [32]byte) {
	if c == nil {
		return
	}
	c.lru.Remove(h)
}

// invalidate drops the credentials with the given hashes.
func (c *CredentialCache) invalidate(hashes ...[32]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	for _, h := range hashes {
		c.lru.Remove(h)
	}
}

// invalidateMerchant drops every credential of a merchant.
func (c *CredentialCache) invalidateMerchant(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	for _, h := range c.lru.Keys() {
		if e, ok := c.lru.Peek(h); ok && e.principal.Scope.MerchantID == id {
			c.lru.Remove(h)
		}
	}
}

// purge empties the cache.
func (c *CredentialCache) purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	c.lru.Purge()
}

// setListening records the listener's state. Either way the cache starts
// empty: entries from before a disconnection may have missed notifications.
func (c *CredentialCache) setListening(conn *pgx.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	c.lru.Purge()
	if conn == nil {
		c.listening.Store(false)
		c.pid.Store(0)
		return
	}
	c.pid.Store(conn.PgConn().PID())
	c.listening.Store(true)
}
