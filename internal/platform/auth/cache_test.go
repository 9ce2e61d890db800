package auth_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
)

// The credential cache (cache.go). Tests wait for notifications with a
// bounded poll on the cache's counters, never a sleep, and move time only
// on the injected clock.

// hour is a TTL no test reaches by accident: what these tests see comes
// from notifications and expiries, not from the TTL.
const hour = time.Hour

// cachedEnv is a test server with the credential cache on, listening.
func cachedEnv(t *testing.T, ttl time.Duration) *testenv.Env {
	t.Helper()
	return cachedEnvWith(t, auth.CacheConfig{TTL: ttl, Size: 100})
}

// cachedEnvWith is cachedEnv with the cache configured by cfg.
func cachedEnvWith(t *testing.T, cfg auth.CacheConfig) *testenv.Env {
	t.Helper()
	env := testenv.New(t, func(o *app.Options) { o.CredentialCache = cfg })
	t.Cleanup(env.App.Close) // runs before the database closes
	waitListening(t, env.App.Credentials)
	return env
}

// secondServer is another server process on env's database: its own app,
// cache and listener.
func secondServer(t *testing.T, env *testenv.Env, ttl time.Duration) *testenv.Env {
	t.Helper()
	a := app.New(app.Options{DB: env.DB, Clock: env.Clock, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		ReportStatements: true, CredentialCache: auth.CacheConfig{TTL: ttl}})
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(a.Close)
	t.Cleanup(srv.Close)
	waitListening(t, a.Credentials)
	second := *env
	second.App, second.Services, second.Server = a, a.Services, srv
	return &second
}

// otherProcess is a database handle of its own, as `server keys` opens.
func otherProcess(t *testing.T, env *testenv.Env) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), env.DB.Pool.Config().ConnString(), 2)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	return db
}

func waitListening(t *testing.T, c *auth.CredentialCache) {
	t.Helper()
	poll.Until(t, "the credential cache's listener to connect", func() bool { return c.Stats().Listening })
}

// waitNotified waits until c has applied a notification after its
// count was seen.
func waitNotified(t *testing.T, c *auth.CredentialCache, seen uint64) {
	t.Helper()
	poll.Until(t, "the notification to reach the process", func() bool { return c.Stats().Notifications > seen })
}

func TestRepeatedCredentialRunsNoAuthStatement(t *testing.T) {
	t.Parallel()
	plain := testenv.New(t)
	env := cachedEnv(t, hour)

	// A key never used before: the first request reads it, the next ones
	// do not.
	live := env.Client(env.Keys.Production.Secret)
	first, second, third := live.Get("/v1/accounts"), live.Get("/v1/accounts"), live.Get("/v1/accounts")
	require.Equal(t, 200, first.Status)
	require.Equal(t, 200, third.Status)
	require.Equal(t, first.Statements-1, second.Statements, "the second request runs no auth statement")
	require.Equal(t, second.Statements, third.Statements)

	// GET by id, against a server without the cache.
	id := newAccount(t, env.Client(env.Keys.Sandbox.Secret))
	cached := env.Client(env.Keys.Sandbox.Secret).Get("/v1/accounts/" + id)
	require.Equal(t, 200, cached.Status, string(cached.Body))
	other := newAccount(t, plain.Client(plain.Keys.Sandbox.Secret))
	uncached := plain.Client(plain.Keys.Sandbox.Secret).Get("/v1/accounts/" + other)
	require.Equal(t, 200, uncached.Status)
	require.Equal(t, uncached.Statements-1, cached.Statements)
	t.Logf("GET /v1/accounts/{id}: %d statements without the cache, %d with it; GET /v1/accounts: %d then %d",
		uncached.Statements, cached.Statements, first.Statements, second.Statements)

	st := env.App.Credentials.Stats()
	require.Positive(t, st.Hits)
	require.Equal(t, 2, st.Entries, "two credentials used, two cached")
}

func TestFailedAuthenticationIsNotCached(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	bad := env.Client(auth.NewAPIKey(auth.SecretKey, false))
	for range 2 {
		r := bad.Get("/v1/accounts")
		require.Equal(t, 401, r.Status)
		require.Equal(t, 1, r.Statements, "an unknown key is asked about every time")
	}
	require.Zero(t, env.App.Credentials.Stats().Entries)
}

// A key revoked by another process (`server keys revoke`) is refused by
// every server's very next request once the notification has arrived.
func TestRevocationReachesEveryProcess(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	second := secondServer(t, env, hour)
	key := env.Keys.Sandbox.Secret
	for _, e := range []*testenv.Env{env, second} {
		c := e.Client(key)
		r1, r2 := c.Get("/v1/accounts"), c.Get("/v1/accounts")
		require.Equal(t, 200, r2.Status)
		require.Equal(t, r1.Statements-1, r2.Statements, "cached in each process")
	}
	seen1, seen2 := env.App.Credentials.Stats().Notifications, second.App.Credentials.Stats().Notifications

	n, err := auth.RevokeKey(context.Background(), otherProcess(t, env), env.Clock, auth.DisplayPrefix(key))
	require.NoError(t, err)
	require.Equal(t, 1, n)

	waitNotified(t, env.App.Credentials, seen1)
	waitNotified(t, second.App.Credentials, seen2)
	for _, e := range []*testenv.Env{env, second} {
		r := e.Client(key).Get("/v1/accounts")
		require.Equal(t, 401, r.Status)
		require.Equal(t, "invalid_api_key", r.JSON()["code"])
	}
	require.Equal(t, 200, env.Client(env.Keys.Production.Secret).Get("/v1/accounts").Status, "other keys are untouched")
}

// A rotated key keeps working for its grace period and not a moment more,
// though it stays cached.
func TestRotationGraceIsHonouredByTheCache(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	old := env.Client(env.Keys.Sandbox.Secret)
	require.Equal(t, 200, old.Get("/v1/accounts").Status)
	seen := env.App.Credentials.Stats().Notifications

	const grace = 10 * time.Minute
	fresh, err := auth.RotateKey(context.Background(), otherProcess(t, env), env.Clock, env.Merchant.ID,
		auth.SecretKey, false, grace)
	require.NoError(t, err)
	waitNotified(t, env.App.Credentials, seen)

	r1, r2 := old.Get("/v1/accounts"), old.Get("/v1/accounts")
	require.Equal(t, 200, r1.Status, "the old key works during the grace period")
	require.Equal(t, 200, r2.Status)
	require.Equal(t, r1.Statements-1, r2.Statements, "read again once (its new expiry), then cached")

	env.Clock.Advance(grace)
	r := old.Get("/v1/accounts")
	require.Equal(t, 401, r.Status, "the grace period is over, on the clock")
	require.Equal(t, "invalid_api_key", r.JSON()["code"])
	require.Zero(t, r.Statements, "answered from the cache: the entry carries its expiry")
	require.Equal(t, 200, env.Client(fresh).Get("/v1/accounts").Status)
}

// Disabling an account ends its cached session secrets: at once in the
// process that disabled it, on the notification in the others.
func TestDisablingAnAccountEndsCachedSessionSecrets(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	second := secondServer(t, env, hour)
	sk := env.Client(env.Keys.Sandbox.Secret)
	own := newAccount(t, sk)
	secret := issue(t, env, auth.OnboardingSession, own)
	for _, e := range []*testenv.Env{env, second} {
		c := e.Client(secret)
		r1, r2 := c.Get("/v1/accounts/"+own), c.Get("/v1/accounts/"+own)
		require.Equal(t, 200, r2.Status, string(r2.Body))
		require.Equal(t, r1.Statements-1, r2.Statements, "the secret is cached")
	}
	seen := second.App.Credentials.Stats().Notifications

	require.Equal(t, 200, sk.Delete("/v1/accounts/"+own).Status)
	r := env.Client(secret).Get("/v1/accounts/" + own)
	require.Equal(t, 401, r.Status, "at once, without waiting for the notification")
	require.Equal(t, "invalid_client_secret", r.JSON()["code"])

	waitNotified(t, second.App.Credentials, seen)
	require.Equal(t, 401, second.Client(secret).Get("/v1/accounts/"+own).Status)
}

func TestNewSessionEndsTheCachedOne(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	own := newAccount(t, env.Client(env.Keys.Sandbox.Secret))
	first := env.Client(issue(t, env, auth.OnboardingSession, own))
	require.Equal(t, 200, first.Get("/v1/accounts/"+own).Status)
	seen := env.App.Credentials.Stats().Notifications

	next := issue(t, env, auth.OnboardingSession, own)
	waitNotified(t, env.App.Credentials, seen)
	require.Equal(t, 401, first.Get("/v1/accounts/"+own).Status)
	require.Equal(t, 200, env.Client(next).Get("/v1/accounts/"+own).Status)

	env.Clock.Advance(30 * time.Minute)
	r := env.Client(next).Get("/v1/accounts/" + own)
	require.Equal(t, 401, r.Status, "a cached secret expires on the clock")
	require.Zero(t, r.Statements)
}

// A session secret of an account on a test clock is judged on the clock's
// time, which an advance moves without a notification: it is never
// cached, so the advance ends it at once in every process.
func TestSessionSecretOnTestClockIsNotCached(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	sk := env.Client(env.Keys.Sandbox.Secret)
	start := testenv.Start.Unix()
	clock := sk.Post("/v1/test_helpers/test_clocks", map[string]any{"frozen_time": start})
	require.Equal(t, 201, clock.Status, string(clock.Body))
	clockID := clock.JSON()["id"].(string)
	r := sk.Post("/v1/accounts", map[string]any{"type": "individual", "test_clock": clockID,
		"profile": map[string]any{"individual": map[string]any{"name": map[string]any{"first_name": "Ada", "last_name": "Lovelace"}}}})
	require.Equal(t, 201, r.Status, string(r.Body))
	own := r.JSON()["id"].(string)
	holder := env.Client(issue(t, env, auth.OnboardingSession, own))

	r1, r2 := holder.Get("/v1/accounts/"+own), holder.Get("/v1/accounts/"+own)
	require.Equal(t, 200, r2.Status, string(r2.Body))
	require.Equal(t, r1.Statements, r2.Statements, "each request reads the secret and its clock")

	advance := sk.Post("/v1/test_helpers/test_clocks/"+clockID+"/advance", map[string]any{"frozen_time": start + 31*60})
	require.Equal(t, 200, advance.Status, string(advance.Body))
	r = holder.Get("/v1/accounts/" + own)
	require.Equal(t, 401, r.Status, "expired on the clock")
	require.Equal(t, "invalid_client_secret", r.JSON()["code"])
}

func TestMerchantChangeDropsItsCredentials(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, hour)
	other, otherKeys := env.NewMerchant(auth.NewMerchant{Name: "Other"})
	mine, theirs := env.Client(env.Keys.Sandbox.Secret), env.Client(otherKeys.Sandbox.Secret)
	base := mine.Get("/v1/accounts").Statements
	require.Equal(t, base-1, mine.Get("/v1/accounts").Statements)
	theirs.Get("/v1/accounts")
	require.Equal(t, base-1, theirs.Get("/v1/accounts").Statements)
	seen := env.App.Credentials.Stats().Notifications

	require.NoError(t, auth.NotifyMerchantChanged(context.Background(), env.DB.Bun, env.Merchant.ID))
	waitNotified(t, env.App.Credentials, seen)
	require.Equal(t, base, mine.Get("/v1/accounts").Statements, "the merchant's keys are read again")
	require.Equal(t, base-1, theirs.Get("/v1/accounts").Statements, "another merchant's stay cached")
	require.NotEqual(t, env.Merchant.ID, other.ID)
}

// The TTL bounds a change no notification announced.
func TestTTLBoundsAnUnannouncedChange(t *testing.T) {
	t.Parallel()
	env := cachedEnv(t, time.Minute)
	c := env.Client(env.Keys.Sandbox.Secret)
	require.Equal(t, 200, c.Get("/v1/accounts").Status)
	_, err := env.DB.Bun.NewRaw("UPDATE api_keys SET revoked_at = now() WHERE hash = ?",
		auth.Hash(env.Keys.Sandbox.Secret)).Exec(context.Background())
	require.NoError(t, err)
	require.Equal(t, 200, c.Get("/v1/accounts").Status, "unannounced: the cache cannot know yet")
	env.Clock.Advance(time.Minute)
	require.Equal(t, 401, c.Get("/v1/accounts").Status, "after the TTL the database is asked again")
}

// When the listener's connection dies the cache is emptied and bypassed
// (a revocation made meanwhile is not heard, so nothing cached can be
// trusted) until the listener is back.
func TestListenerReconnectsAndCacheIsBypassedWhileDown(t *testing.T) {
	t.Parallel()
	gate := &listenerGate{}
	env := cachedEnvWith(t, auth.CacheConfig{TTL: hour, Size: 100, BeforeConnect: gate.wait})
	cache := env.App.Credentials
	sk, live := env.Client(env.Keys.Sandbox.Secret), env.Client(env.Keys.Production.Secret)
	base := sk.Get("/v1/accounts").Statements
	require.Equal(t, base-1, sk.Get("/v1/accounts").Statements)
	require.Equal(t, 200, live.Get("/v1/accounts").Status)

	release := gate.hold()
	defer release()
	pid := cache.Stats().ListenerPID
	require.NotZero(t, pid)
	var killed bool
	require.NoError(t, env.DB.Bun.NewRaw("SELECT pg_terminate_backend(?)", pid).Scan(context.Background(), &killed))
	require.True(t, killed)
	poll.Until(t, "the listener to notice its disconnection", func() bool { return !cache.Stats().Listening })
	require.Zero(t, cache.Stats().Entries, "emptied on disconnection")

	for range 2 {
		require.Equal(t, base, sk.Get("/v1/accounts").Statements, "bypassed while the listener is down")
	}
	_, err := auth.RevokeKey(context.Background(), otherProcess(t, env), env.Clock, env.Keys.Production.Secret)
	require.NoError(t, err)
	require.Equal(t, 401, live.Get("/v1/accounts").Status, "a revocation nobody heard of takes effect")

	release()
	poll.Until(t, "the listener to reconnect", func() bool {
		st := cache.Stats()
		return st.Listening && st.Connects == 2 && st.ListenerPID != pid
	})
	require.Equal(t, base, sk.Get("/v1/accounts").Statements)
	require.Equal(t, base-1, sk.Get("/v1/accounts").Statements, "cached again")

	seen := cache.Stats().Notifications
	_, err = auth.RevokeKey(context.Background(), otherProcess(t, env), env.Clock, env.Keys.Sandbox.Secret)
	require.NoError(t, err)
	waitNotified(t, cache, seen)
	require.Equal(t, 401, sk.Get("/v1/accounts").Status, "the new connection hears revocations")
}

// listenerGate is a cache's BeforeConnect that holds the listener down
// from hold until its release.
type listenerGate struct {
	mu   sync.Mutex
	held chan struct{} // closed by the release; nil: the listener may connect
}

// hold keeps the listener from connecting again until release is called.
func (g *listenerGate) hold() (release func()) {
	held := make(chan struct{})
	g.mu.Lock()
	g.held = held
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.held = nil
			g.mu.Unlock()
			close(held)
		})
	}
}

func (g *listenerGate) wait(ctx context.Context) error {
	g.mu.Lock()
	held := g.held
	g.mu.Unlock()
	if held == nil {
		return nil
	}
	select {
	case <-held:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
