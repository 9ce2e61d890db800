package testenv

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/testenv/testdb"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Start is the time every test clock starts at.
var Start = testdb.Start

// Env is one test's server: its own database, clock and HTTP server.
type Env struct {
	T        testing.TB
	DB       *store.DB
	Clock    *clock.Manual
	App      *app.App
	Services areas.Services
	Server   *httptest.Server
	// URL is the test database's: a second server process would open it.
	URL string

	// Jobs is the server's job engine: operations enqueue on it, and it
	// works the jobs once StartJobs has started it.
	Jobs *jobs.Engine

	// Merchant holds every product; Keys are its four keys.
	Merchant *auth.Merchant
	Keys     auth.IssuedKeys
}

// Option adjusts the app an Env builds.
type Option func(*app.Options)

// WithFacts installs a requirement-facts hook on the resolver.
func WithFacts(hook func(*models.Account, *capability.Facts)) Option {
	return func(o *app.Options) { o.FactsHook = hook }
}

// GraphQLHandler builds the /graphql handler; the graph package's tests and
// the black-box tests set it (see graphql.go).
var GraphQLHandler = defaultGraphQL

// New builds an Env with a fresh database and a merchant holding every
// product.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	e := Open(t, NewDatabaseURL(t), opts...)
	e.Merchant, e.Keys = e.NewMerchant(auth.NewMerchant{Name: "Test Platform"})
	return e
}

// Open builds an Env serving the database at url as it is (a database
// upgraded by the migration test, say): no merchant is created, so
// Merchant and Keys are unset.
func Open(t testing.TB, url string, opts ...Option) *Env {
	t.Helper()
	return OpenWith(t, url, nil, opts...)
}

// OpenWith is Open with the store opened with storeOpts (a pooler's,
// store.WithPooler, whose job engine then polls).
func OpenWith(t testing.TB, url string, storeOpts []store.Option, opts ...Option) *Env {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, url, 8, storeOpts...)
	if err != nil {
		t.Fatalf("testenv: open database: %v", err)
	}
	t.Cleanup(db.Close)
	clk := clock.NewManual(Start)
	clk.SetStep(time.Millisecond)
	o := app.Options{DB: db, Clock: clk, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		GraphQL: GraphQLHandler, GraphQLError: graph.WriteError, ReportStatements: true, FundingSweepInterval: time.Second,
		RequestLog: true,
		// Tests receive sandbox webhooks on loopback, as a developer does.
		WebhookDestinations: webhook.Destinations{SandboxLocal: true}}
	for _, opt := range opts {
		opt(&o)
	}
	workers := river.NewWorkers()
	engine, err := jobs.New(db.Pool, jobs.Config{Logger: o.Logger, Clock: clk, Workers: workers, MaxWorkers: 2,
		PollOnly: db.Pooled()})
	if err != nil {
		t.Fatalf("testenv: job engine: %v", err)
	}
	o.Jobs, o.Workers = engine, workers
	a := app.New(o)
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(srv.Close)
	t.Cleanup(a.Close)
	return &Env{T: t, DB: db, Clock: clk, App: a, Services: a.Services, Server: srv, Jobs: engine, URL: url}
}

// NewMerchant creates another merchant with its four keys; without
// products it holds every product.
func (e *Env) NewMerchant(in auth.NewMerchant) (*auth.Merchant, auth.IssuedKeys) {
	e.T.Helper()
	if in.Products == nil {
		for _, p := range capability.AllProducts() {
			in.Products = append(in.Products, string(p))
		}
	}
	m, keys, err := auth.CreateMerchant(context.Background(), e.DB, e.Clock, in)
	if err != nil {
		e.T.Fatalf("testenv: create merchant: %v", err)
	}
	return m, keys
}

// WithLogger sends the server's logs to l.
func WithLogger(l *slog.Logger) Option {
	return func(o *app.Options) { o.Logger = l }
}

// StartJobs starts the job engine (background work such as identity runs
// concluding) until the test ends. Tests that do not call it leave the
// enqueued jobs unworked.
func (e *Env) StartJobs() {
	e.T.Helper()
	if err := e.Jobs.Start(context.Background()); err != nil {
		e.T.Fatalf("testenv: start jobs: %v", err)
	}
	e.T.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = e.Jobs.Stop(ctx)
	})
}

// AwaitJobs waits until done holds: it checks once, then again each time
// the job engine finishes a job (the subscription is taken before the
// first check, so no job's end is missed). It has no deadline of its own:
// a job that never runs is the test's timeout, never a wall-clock window
// that a loaded machine could miss.
func (e *Env) AwaitJobs(done func() bool) {
	e.T.Helper()
	finished, cancel := e.Jobs.Finished()
	defer cancel()
	for !done() {
		<-finished
	}
}

// WithAdvanceBudget sets how many effects a test clock advance request (or
// a slice of its continuation) applies at most.
func WithAdvanceBudget(n int) Option {
	return func(o *app.Options) { o.AdvanceBudget = n }
}

// WithIdentityAttempts sets the identity verification attempt allowance.
func WithIdentityAttempts(n int) Option {
	return func(o *app.Options) { o.IdentityAttempts = n }
}

// WithListen bounds the CLI's listen sessions (webhooks.ListenConfig).
func WithListen(cfg webhooks.ListenConfig) Option {
	return func(o *app.Options) { o.Listen = cfg }
}

// WithCableRecheck verifies /cable connections' credentials again every d.
func WithCableRecheck(d time.Duration) Option {
	return func(o *app.Options) { o.CableRecheck = d }
}
