package rest_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ratelimit"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// rateLimited builds a server with cfg and a clock that only moves when the
// test moves it, so that buckets refill only when the test says.
func rateLimited(t *testing.T, cfg ratelimit.Config) *fixture {
	t.Helper()
	f := setup(t, testenv.WithRateLimits(cfg))
	f.env.Clock.SetStep(0)
	return f
}

// requireRateLimited asserts the 429 of API-DECISIONS §2 and §8.
func requireRateLimited(t *testing.T, r *testenv.Response, retryAfter string) {
	t.Helper()
	require.Equal(t, http.StatusTooManyRequests, r.Status, string(r.Body))
	require.Equal(t, retryAfter, r.Header.Get("Retry-After"))
	body := r.JSON()
	require.EqualValues(t, 429, body["status"])
	require.Equal(t, "Too Many Requests", body["error"])
	require.Equal(t, "rate_limited", body["code"])
	require.NotEmpty(t, body["message"])
	details := body["error_details"].(map[string]any)
	require.Equal(t, body["message"], details["message"])
	secs, err := strconv.Atoi(retryAfter)
	require.NoError(t, err)
	require.EqualValues(t, secs, details["data"].(map[string]any)["retry_after"])
	require.Equal(t, r.Header.Get("Request-Id"), body["request_id"])
}

// A burst over the merchant's limit gets 429 rate_limited with Retry-After
// in the envelope, on REST and GraphQL alike;
// another merchant and the other mode are not affected, and the bucket
// refills with time.
func TestRateLimitRefusesABurst(t *testing.T) {
	t.Parallel()
	f := rateLimited(t, ratelimit.Config{
		Sandbox:    ratelimit.Limit{Rate: 5, Burst: 5, Chunk: 2},
		Production: ratelimit.Limit{Rate: 7, Burst: 7},
	})
	for i := range 5 {
		require.Equal(t, 200, f.sk.Get("/v1/accounts").Status, "request %d is within the burst", i+1)
	}
	requireRateLimited(t, f.sk.Get("/v1/accounts"), "1")
	require.Equal(t, 404, f.pk.Get("/v1/accounts/acct_nope").Status, "the publishable key has its own budget")
	// /graphql is refused the same way, in GraphQL's shape (docs/graphql.md, Errors).
	gql := f.sk.Do(http.MethodPost, "/graphql", map[string]any{"query": "{ accounts { totalCount } }"}, nil)
	require.Equal(t, http.StatusTooManyRequests, gql.Status, string(gql.Body))
	require.Equal(t, "1", gql.Header.Get("Retry-After"))
	gqlErrors, _ := gql.JSON()["errors"].([]any)
	require.Len(t, gqlErrors, 1, string(gql.Body))
	ext := gqlErrors[0].(map[string]any)["extensions"].(map[string]any)
	require.Equal(t, "rate_limited", ext["code"], string(gql.Body))
	require.EqualValues(t, 429, ext["status"], string(gql.Body))

	// The other mode has its own bucket and limit.
	for range 7 {
		require.Equal(t, 200, f.live.Get("/v1/accounts").Status)
	}
	requireRateLimited(t, f.live.Get("/v1/accounts"), "1")

	// Another merchant has its own bucket.
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	other := f.env.Client(keys.Sandbox.Secret)
	for range 5 {
		require.Equal(t, 200, other.Get("/v1/accounts").Status)
	}

	// One token every 200 ms.
	f.env.Clock.Advance(200 * time.Millisecond)
	require.Equal(t, 200, f.sk.Get("/v1/accounts").Status)
	requireRateLimited(t, f.sk.Get("/v1/accounts"), "1")
}

// Retry-After is the wait for the next token in whole seconds, rounded up.
func TestRateLimitRetryAfterIsTheWaitForTheNextToken(t *testing.T) {
	t.Parallel()
	f := rateLimited(t, ratelimit.Config{Sandbox: ratelimit.Limit{Rate: 0.25, Burst: 1}})
	require.Equal(t, 200, f.sk.Get("/v1/accounts").Status)
	requireRateLimited(t, f.sk.Get("/v1/accounts"), "4")
	f.env.Clock.Advance(1500 * time.Millisecond)
	requireRateLimited(t, f.sk.Get("/v1/accounts"), "3")
	f.env.Clock.Advance(2500 * time.Millisecond)
	require.Equal(t, 200, f.sk.Get("/v1/accounts").Status)
}

// Anonymous requests and failed authentications are no merchant's: they
// are answered 401 as before and spend nothing.
func TestRateLimitCountsOnlyAuthenticatedRequests(t *testing.T) {
	t.Parallel()
	f := rateLimited(t, ratelimit.Config{Sandbox: ratelimit.Limit{Rate: 3, Burst: 3}})
	anon := f.env.Client("")
	bad := f.env.Client(f.env.Keys.Sandbox.Secret + "x")
	for range 20 {
		require.Equal(t, 401, anon.Get("/v1/accounts").Status)
		require.Equal(t, 401, bad.Get("/v1/accounts").Status)
	}
	for range 3 {
		require.Equal(t, 200, f.sk.Get("/v1/accounts").Status)
	}
	requireRateLimited(t, f.sk.Get("/v1/accounts"), "1")
	r := anon.Get("/v1/accounts")
	require.Equal(t, 401, r.Status)
	require.Equal(t, "authentication_required", r.JSON()["code"])
}

// The database is asked once per chunk of requests, and not at all while a
// merchant is refused.
func TestRateLimitRunsOneStatementPerChunk(t *testing.T) {
	t.Parallel()
	f := rateLimited(t, ratelimit.Config{
		Sandbox: ratelimit.Limit{Rate: 100, Burst: 100, Chunk: 10},
	})
	baseline := f.live.Get("/v1/accounts").Statements // production: unlimited
	require.Positive(t, baseline)

	leases := 0
	for range 100 {
		r := f.sk.Get("/v1/accounts")
		require.Equal(t, 200, r.Status)
		leases += r.Statements - baseline
	}
	require.Equal(t, 10, leases, "100 requests, chunks of 10")

	first := f.sk.Get("/v1/accounts")
	require.Equal(t, 429, first.Status)
	for range 10 {
		r := f.sk.Get("/v1/accounts")
		require.Equal(t, 429, r.Status)
		require.Equal(t, first.Statements-1, r.Statements,
			"only the first refusal asks the database; the rest only authenticate")
	}
}

// A rate of 0 turns a mode's limit off: nothing is refused, no statement is
// added.
func TestRateLimitZeroIsOff(t *testing.T) {
	t.Parallel()
	f := rateLimited(t, ratelimit.Config{Sandbox: ratelimit.Limit{Rate: 0, Burst: 5}, Production: ratelimit.Limit{Rate: 1}})
	baseline := setup(t).sk.Get("/v1/accounts").Statements // a server without limits
	for range 50 {
		r := f.sk.Get("/v1/accounts")
		require.Equal(t, 200, r.Status)
		require.Equal(t, baseline, r.Statements)
	}
	require.Equal(t, 200, f.live.Get("/v1/accounts").Status)
	require.Equal(t, 429, f.live.Get("/v1/accounts").Status, "the other mode keeps its limit")
}

// Two server processes on one database share each merchant's bucket: at
// any moment they admit at most the burst plus what each took earlier and
// still holds (Chunk-1 per process, the documented overshoot), and over a
// window of Δ at most Burst + Rate×Δ + P×(Chunk-1).
func TestRateLimitHoldsAcrossServers(t *testing.T) {
	t.Parallel()
	const rate, burst, chunk, servers = 10, 10, 3, 2
	cfg := ratelimit.Config{Sandbox: ratelimit.Limit{Rate: rate, Burst: burst, Chunk: chunk}}
	f := rateLimited(t, cfg)
	second := httptest.NewServer(app.New(app.Options{DB: f.env.DB, Clock: f.env.Clock, RateLimits: cfg,
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}).Handler)
	t.Cleanup(second.Close)
	bases := []string{f.env.Server.URL, second.URL}
	key := f.env.Keys.Sandbox.Secret

	get := func(base string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, base+"/v1/accounts", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Retry-After")
	}
	// hammer sends requests to both servers from several clients at once
	// until every client has been refused, and returns how many passed.
	hammer := func() int {
		var admitted atomic.Int64
		var wg sync.WaitGroup
		for i := range 6 {
			base := bases[i%servers]
			wg.Go(func() {
				for range 1000 {
					status, retry := get(base)
					if status == 429 {
						if retry == "" {
							t.Error("429 without Retry-After")
						}
						return
					}
					if status != 200 {
						t.Errorf("status %d", status)
						return
					}
					admitted.Add(1)
				}
				t.Error("never refused")
			})
		}
		wg.Wait()
		return int(admitted.Load())
	}

	// A full bucket: together the servers admit exactly the burst.
	require.Equal(t, burst, hammer())

	// One token each: each server takes a chunk and holds the rest.
	for _, b := range bases {
		f.env.Clock.Advance(time.Second)
		status, _ := get(b)
		require.Equal(t, 200, status)
	}
	// Long after, the bucket is full again: the held tokens come on top.
	f.env.Clock.Advance(time.Hour)
	require.Equal(t, burst+servers*(chunk-1), hammer(), "the overshoot is the held tokens, no more")

	// Every window of one second under pressure: at most the refill plus
	// the overshoot.
	for range 3 {
		f.env.Clock.Advance(time.Second)
		admitted := hammer()
		require.LessOrEqual(t, admitted, rate+servers*(chunk-1))
		require.GreaterOrEqual(t, admitted, rate-servers*(chunk-1))
	}
}

// The publishable key is public: a flood with it spends the client budget,
// per client address first, and leaves the secret key's budget whole. The
// 429 names the budget that refused.
func TestRateLimitKeepsTheSecretKeysBudgetFromPublicCredentials(t *testing.T) {
	t.Parallel()
	f := rateLimited(t, ratelimit.Config{
		Sandbox: ratelimit.Limit{Rate: 3, Burst: 3},
		Client:  ratelimit.ClientLimits{Sandbox: ratelimit.Limit{Rate: 6, Burst: 6}, Address: ratelimit.Limit{Rate: 1, Burst: 4}},
	})
	refusedBy := func(r *testenv.Response, budget string) {
		t.Helper()
		requireRateLimited(t, r, "1")
		require.Equal(t, budget, r.Header.Get("RateLimit-Budget"))
		require.Equal(t, budget, r.JSON()["error_details"].(map[string]any)["data"].(map[string]any)["budget"])
	}
	// One client address: its own share of the client budget.
	for range 4 {
		require.Equal(t, 404, f.pk.Get("/v1/accounts/acct_nope").Status)
	}
	r := f.pk.Get("/v1/accounts/acct_nope")
	refusedBy(r, "client_address")
	require.Contains(t, r.JSON()["message"], "client address")
	// The secret key is answered all along, up to its own limit.
	for range 3 {
		require.Equal(t, 200, f.sk.Get("/v1/accounts").Status)
	}
	refusedBy(f.sk.Get("/v1/accounts"), "secret")

	// Without the per-address share, the merchant's client budget refuses;
	// the secret key's refills untouched.
	g := rateLimited(t, ratelimit.Config{
		Sandbox: ratelimit.Limit{Rate: 3, Burst: 3},
		Client:  ratelimit.ClientLimits{Sandbox: ratelimit.Limit{Rate: 2, Burst: 2}},
	})
	for range 2 {
		require.Equal(t, 404, g.pk.Get("/v1/accounts/acct_nope").Status)
	}
	for range 20 {
		refusedBy(g.pk.Get("/v1/accounts/acct_nope"), "client")
	}
	for range 3 {
		require.Equal(t, 200, g.sk.Get("/v1/accounts").Status)
	}
}
