package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/ratelimit"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

type fixture struct {
	db    *store.DB
	clock *clock.Manual
	a, b  store.Scope // two merchants, sandbox
	aLive store.Scope // merchant a, production
}

func setup(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(t), 8)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	clk := clock.NewManual(testdb.Start)
	ma, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "A"})
	require.NoError(t, err)
	mb, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "B"})
	require.NoError(t, err)
	return &fixture{db: db, clock: clk,
		a: store.Scope{MerchantID: ma.ID}, b: store.Scope{MerchantID: mb.ID},
		aLive: store.Scope{MerchantID: ma.ID, Livemode: true}}
}

func (f *fixture) limiter(cfg ratelimit.Config) *ratelimit.Limiter {
	return ratelimit.New(f.db, f.clock, cfg, nil)
}

func sandbox(l ratelimit.Limit) ratelimit.Config { return ratelimit.Config{Sandbox: l} }

// allow calls Allow and fails the test on an error.
func allow(t *testing.T, ctx context.Context, l *ratelimit.Limiter, s store.Scope) (bool, time.Duration) {
	t.Helper()
	ok, wait, err := l.Allow(ctx, s)
	require.NoError(t, err)
	return ok, wait
}

// drain spends tokens until the limiter refuses and returns how many it
// admitted.
func drain(t *testing.T, ctx context.Context, l *ratelimit.Limiter, s store.Scope) int {
	t.Helper()
	n := 0
	for {
		ok, _ := allow(t, ctx, l, s)
		if !ok {
			return n
		}
		n++
		require.Less(t, n, 100_000, "the limiter never refused")
	}
}

// A burst over the limit is refused with the wait for the next token; the
// database is asked once per chunk, and not again while refused.
func TestBurstIsRefusedOnceTheBucketIsEmpty(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(sandbox(ratelimit.Limit{Rate: 10, Burst: 10, Chunk: 3}))
	ctx, statements := store.WithStatementCounter(context.Background())

	for i := range 10 {
		ok, _ := allow(t, ctx, l, f.a)
		require.True(t, ok, "request %d is within the burst", i+1)
	}
	require.EqualValues(t, 4, statements.Load(), "10 tokens in chunks of 3: 4 leases")

	ok, wait := allow(t, ctx, l, f.a)
	require.False(t, ok)
	require.Equal(t, 100*time.Millisecond, wait, "one token every 100 ms")
	require.EqualValues(t, 1, ratelimit.RetryAfterSeconds(wait))
	require.EqualValues(t, 5, statements.Load(), "the refusal is one lease")

	for range 50 {
		ok, _ := allow(t, ctx, l, f.a)
		require.False(t, ok)
	}
	require.EqualValues(t, 5, statements.Load(), "refusals until the next token need no statement")

	f.clock.Advance(100 * time.Millisecond)
	ok, _ = allow(t, ctx, l, f.a)
	require.True(t, ok, "a token is back after one interval")
	ok, _ = allow(t, ctx, l, f.a)
	require.False(t, ok)
}

// The wait is the time until the shared bucket holds a token again.
func TestRetryAfterIsTheWaitForTheNextToken(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(sandbox(ratelimit.Limit{Rate: 0.2, Burst: 2}))
	ctx := context.Background()
	require.Equal(t, 2, drain(t, ctx, l, f.a))

	_, wait := allow(t, ctx, l, f.a)
	require.Equal(t, 5*time.Second, wait)
	f.clock.Advance(3500 * time.Millisecond)
	ok, wait := allow(t, ctx, l, f.a)
	require.False(t, ok)
	require.Equal(t, 1500*time.Millisecond, wait)
	require.EqualValues(t, 2, ratelimit.RetryAfterSeconds(wait), "rounded up to whole seconds")

	f.clock.Advance(1500 * time.Millisecond)
	require.Equal(t, 1, drain(t, ctx, l, f.a), "one token per 5 s")
	f.clock.Advance(time.Hour)
	require.Equal(t, 2, drain(t, ctx, l, f.a), "a bucket refills only up to its burst")
}

func TestRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	for wait, want := range map[time.Duration]int64{
		0: 1, time.Microsecond: 1, time.Second: 1, time.Second + time.Microsecond: 2, 59 * time.Second: 59,
	} {
		require.Equal(t, want, ratelimit.RetryAfterSeconds(wait), "wait %v", wait)
	}
}

// Another merchant and the other mode have their own buckets and limits.
func TestMerchantsAndModesHaveTheirOwnBuckets(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(ratelimit.Config{Sandbox: ratelimit.Limit{Rate: 5, Burst: 5}, Production: ratelimit.Limit{Rate: 8, Burst: 8}})
	ctx := context.Background()
	require.Equal(t, 5, drain(t, ctx, l, f.a))
	require.Equal(t, 8, drain(t, ctx, l, f.aLive), "production has its own bucket and its own limit")
	require.Equal(t, 5, drain(t, ctx, l, f.b), "another merchant has its own bucket")
}

// A rate of 0 turns a mode's limit off: no refusal, no statement.
func TestZeroRateIsOff(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(ratelimit.Config{Production: ratelimit.Limit{Rate: 3}})
	ctx, statements := store.WithStatementCounter(context.Background())
	for range 1000 {
		ok, _ := allow(t, ctx, l, f.a)
		require.True(t, ok)
	}
	require.Zero(t, statements.Load())
	require.Equal(t, 3, drain(t, ctx, l, f.aLive), "the other mode is still limited")

	// With every limit off the middleware is no middleware at all.
	require.True(t, ratelimit.Config{}.Off())
}

// Two processes share one bucket: starting full, together they admit
// exactly the burst.
func TestProcessesShareOneBucket(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := sandbox(ratelimit.Limit{Rate: 50, Burst: 50, Chunk: 4})
	procs := []*ratelimit.Limiter{f.limiter(cfg), f.limiter(cfg), f.limiter(cfg)}
	ctx, statements := store.WithStatementCounter(context.Background())

	var admitted atomic.Int64
	var wg sync.WaitGroup
	for i := range 12 { // 4 concurrent callers per process
		l := procs[i%len(procs)]
		wg.Go(func() {
			for {
				ok, _, err := l.Allow(ctx, f.a)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					return
				}
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	require.EqualValues(t, 50, admitted.Load())
	// 50 tokens in chunks of at most 4, plus one refused lease per process.
	require.LessOrEqual(t, statements.Load(), int64(50/4+1+len(procs)))
}

// The documented overshoot: tokens a process took earlier are spent on top
// of a full bucket, at most Chunk-1 per process.
func TestOvershootIsBoundedByTheChunksProcessesHold(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const burst, chunk = 10, 4
	cfg := sandbox(ratelimit.Limit{Rate: 10, Burst: burst, Chunk: chunk})
	p1, p2 := f.limiter(cfg), f.limiter(cfg)
	ctx := context.Background()
	for _, p := range []*ratelimit.Limiter{p1, p2} {
		ok, _ := allow(t, ctx, p, f.a) // takes a chunk, spends one, holds chunk-1
		require.True(t, ok)
	}
	f.clock.Advance(time.Hour) // the shared bucket is full again
	admitted := drain(t, ctx, p1, f.a) + drain(t, ctx, p2, f.a)
	require.Equal(t, burst+2*(chunk-1), admitted)
}

// Under sustained pressure from two processes the bucket admits its rate:
// never more than Burst + Rate×Δ + P×(Chunk-1), and no fewer than
// Burst + Rate×Δ - 1 (nothing is lost while both spend what they hold).
func TestSustainedRateAcrossProcesses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const rate, burst, chunk, procs = 20, 10, 3, 2
	cfg := sandbox(ratelimit.Limit{Rate: rate, Burst: burst, Chunk: chunk})
	p := []*ratelimit.Limiter{f.limiter(cfg), f.limiter(cfg)}
	ctx := context.Background()
	admitted := 0
	const steps, step = 80, 37 * time.Millisecond
	for i := range steps {
		// Both processes, interleaved, until both are refused.
		for {
			ok0, _ := allow(t, ctx, p[i%2], f.a)
			ok1, _ := allow(t, ctx, p[(i+1)%2], f.a)
			admitted += btoi(ok0) + btoi(ok1)
			if !ok0 && !ok1 {
				break
			}
		}
		elapsed := time.Duration(i) * step
		ideal := burst + int(rate*elapsed.Seconds())
		require.LessOrEqual(t, admitted, ideal+procs*(chunk-1), "step %d", i)
		require.GreaterOrEqual(t, admitted, ideal-1, "step %d", i)
		f.clock.Advance(step)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Concurrent requests of one process wait for the one lease in flight
// instead of each asking the database.
func TestOneProcessLeasesOnceForConcurrentRequests(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(sandbox(ratelimit.Limit{Rate: 20, Burst: 20, Chunk: 5}))
	ctx, statements := store.WithStatementCounter(context.Background())
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			ok, _, err := l.Allow(ctx, f.a)
			if err != nil {
				t.Error(err)
			}
			if ok {
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	require.EqualValues(t, 20, admitted.Load())
	require.LessOrEqual(t, statements.Load(), int64(20/5+1), "one lease per chunk and one refused lease")
}

// Defaults: the burst is one second's worth, chunks a tenth of the burst.
func TestDefaults(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := ratelimit.DefaultConfig()
	require.NoError(t, cfg.Validate())
	require.EqualValues(t, 100, cfg.Production.Rate)
	require.EqualValues(t, 25, cfg.Sandbox.Rate)

	l := f.limiter(cfg)
	ctx, statements := store.WithStatementCounter(context.Background())
	require.Equal(t, 25, drain(t, ctx, l, f.a))
	require.EqualValues(t, 9+1, statements.Load(), "25 tokens in chunks of 3, then the refusal")
	statements.Store(0)
	require.Equal(t, 100, drain(t, ctx, l, f.aLive))
	require.EqualValues(t, 10+1, statements.Load(), "100 tokens in chunks of 10, then the refusal")

	require.Equal(t, 1, drain(t, context.Background(), f.limiter(sandbox(ratelimit.Limit{Rate: 0.5})), f.b),
		"a rate below one per second has a burst of one")
}

func TestValidate(t *testing.T) {
	t.Parallel()
	require.NoError(t, ratelimit.Config{}.Validate())
	for _, bad := range []ratelimit.Config{
		{Sandbox: ratelimit.Limit{Rate: -1}},
		{Production: ratelimit.Limit{Rate: 10, Burst: -1}},
		{Production: ratelimit.Limit{Rate: 10, Chunk: -1}},
		{Production: ratelimit.Limit{Rate: 2e6}},
	} {
		require.Error(t, bad.Validate(), "%+v", bad)
	}
}

// Without the database a request is admitted (it fails on its own) and the
// error is reported.
func TestDatabaseErrorsAdmit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(sandbox(ratelimit.Limit{Rate: 1}))
	f.db.Close()
	ok, _, err := l.Allow(context.Background(), f.a)
	require.True(t, ok)
	require.Error(t, err)
}

// The purge deletes buckets that have been full for a while and keeps the
// booked ones; either way the limits stay as they were.
func TestPurgeDeletesIdleBuckets(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := sandbox(ratelimit.Limit{Rate: 1, Burst: 3})
	l := f.limiter(cfg)
	ctx := context.Background()
	require.Equal(t, 3, drain(t, ctx, l, f.b))
	f.clock.Advance(2 * time.Minute)
	require.Equal(t, 3, drain(t, ctx, l, f.a))
	require.Equal(t, 2, countBuckets(t, f.db))

	w := ratelimit.NewPurgeWorker(f.db, f.clock)
	require.NoError(t, w.Work(ctx, &river.Job[ratelimit.PurgeArgs]{}))
	require.Equal(t, 1, countBuckets(t, f.db), "b's bucket has been full for over a minute")

	fresh := f.limiter(cfg) // a process that holds nothing
	ok, _ := allow(t, ctx, fresh, f.a)
	require.False(t, ok, "a's bucket is still empty")
	require.Equal(t, 3, drain(t, ctx, fresh, f.b), "a purged bucket is a full one")

	workers := river.NewWorkers()
	job, err := ratelimit.AddPurgeJob(workers, f.db, f.clock, 0)
	require.NoError(t, err)
	require.NotNil(t, job)
}

func countBuckets(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	require.NoError(t, db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM rate_limit_buckets`).Scan(&n))
	return n
}

// The fast path: tokens in hand, no clock, no statement.
func BenchmarkAllowWithTokensInHand(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.NewDatabaseURL(b), 8)
	require.NoError(b, err)
	b.Cleanup(db.Close)
	clk := clock.NewManual(testdb.Start)
	m, _, err := auth.CreateMerchant(ctx, db, clk, auth.NewMerchant{Name: "Bench"})
	require.NoError(b, err)
	s := store.Scope{MerchantID: m.ID}
	l := ratelimit.New(db, clk, sandbox(ratelimit.Limit{Rate: 1e6, Burst: 1e6, Chunk: 1e5}), nil)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if ok, _, err := l.Allow(ctx, s); !ok || err != nil {
				clk.Advance(time.Second)
			}
		}
	})
}

// Client addresses have their own shares of the client budget; an IPv6
// client is counted by its /64, so walking through it gains nothing.
func TestClientAddressesHaveTheirOwnShares(t *testing.T) {
	t.Parallel()
	f := setup(t)
	l := f.limiter(ratelimit.Config{Client: ratelimit.ClientLimits{Sandbox: ratelimit.Limit{Rate: 5, Burst: 5},
		Address: ratelimit.Limit{Rate: 2, Burst: 2}}})
	ctx := context.Background()
	spend := func(addr string) (admitted int, refused ratelimit.Budget) {
		for {
			ok, _, budget, err := l.AllowClient(ctx, f.a, ratelimit.ClientAddress(addr))
			require.NoError(t, err)
			if !ok {
				return admitted, budget
			}
			admitted++
		}
	}
	n, by := spend("203.0.113.7")
	require.Equal(t, 2, n)
	require.Equal(t, ratelimit.AddressBudget, by)
	n, _ = spend("2001:db8::1")
	require.Equal(t, 2, n)
	n, _ = spend("2001:db8::ffff")
	require.Zero(t, n, "the same /64")
	n, by = spend("198.51.100.1")
	require.Equal(t, 1, n, "the merchant's client budget is spent: 5 in all")
	require.Equal(t, ratelimit.ClientBudget, by)
	ok, _ := allow(t, ctx, l, f.a)
	require.True(t, ok, "the secret key's budget is another")
	require.Equal(t, "1.2.3.4", ratelimit.ClientAddress("::ffff:1.2.3.4"))
}
