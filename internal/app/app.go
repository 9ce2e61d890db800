// Package app assembles the HTTP server from its parts. server.go and the
// test harness both build the handler here, so tests exercise exactly what
// production serves.
package app

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/cable"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/ratelimit"
	"github.com/frame-oss/payments-server/internal/platform/requestlog"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/migrations"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
	"github.com/frame-oss/payments-server/rest"
)

// Options configures the server.
type Options struct {
	DB     *store.DB
	Clock  clock.Clock
	Logger *slog.Logger
	// GraphQL builds the /graphql handler over the resolver, logging to the
	// server's logger; Playground serves /playground and its assets under
	// /playground/assets/. Either may be nil to leave the routes out.
	GraphQL func(*resolvers.Resolver, *slog.Logger) http.Handler
	// ServerSecret is SERVER_SECRET's value; empty keeps the secret in the
	// database (internal/platform/secrets).
	ServerSecret string
	Playground   http.Handler
	// ReportStatements adds an X-Statement-Count response header with the
	// number of SQL statements the request ran (tests assert on it).
	ReportStatements bool
	// FactsHook is passed to the accounts service (accounts.Service).
	FactsHook func(*models.Account, *capability.Facts)
	// RateLimits limits authenticated requests per merchant and mode
	// (internal/platform/ratelimit); the zero value turns them off.
	RateLimits ratelimit.Config
	// Dashboard serves the reference dashboard at /dashboard and its
	// assets under it (graph/dashboard); nil leaves the routes out, so
	// they answer 404.
	Dashboard http.Handler
	// Docs serves the documentation at /docs/ (package docs); nil leaves
	// it out.
	Docs http.Handler
	// MaxInFlight bounds the requests in handlers at once (0: no bound);
	// beyond it, and on connections beyond the server's connection bound,
	// requests are answered 503 server_busy (httpx.InFlight). /healthz and
	// /readyz are always served, so probes see a busy server as alive.
	MaxInFlight int
	// CredentialCache keeps verified credentials in memory, so most
	// requests run no statement to authenticate; revocations reach every
	// process through LISTEN/NOTIFY (auth.CredentialCache). The zero value
	// turns it off; with it on, call App.Close before closing the database.
	CredentialCache auth.CacheConfig
	// Jobs is the job engine the operations enqueue background work on,
	// and Workers its bundle, to which New adds the areas' workers (and to
	// the engine their recurring jobs): build the engine before New and
	// start it after.
	Jobs    *jobs.Engine
	Workers *river.Workers
	// FundingSweepInterval is how often due payout funding schedules are
	// run (0: funding.DefaultSweepInterval).
	FundingSweepInterval time.Duration
	// IdentityAttempts is the identity verification attempt allowance per
	// account (0: the default, 3).
	IdentityAttempts int
	// AdvanceBudget is how many due effects a test clock advance request,
	// or a slice of its background continuation, applies at most (0:
	// billing.DefaultAdvanceBudget).
	AdvanceBudget int
	// WebhookDestinations is where webhook endpoints may point, checked at
	// create and update (the zero value: public addresses only); give the
	// delivery the same (webhooks.DeliveryConfig).
	WebhookDestinations webhook.Destinations
	// Listen bounds the CLI's listen sessions at /cable (the zero value:
	// the defaults).
	Listen webhooks.ListenConfig
	// CableRecheck is how often a /cable connection's credential is
	// verified again (0: every 30 s).
	CableRecheck time.Duration
	// RequestLog serves the live request log of the sandboxes (/cable's
	// Cli::LogsChannel, GraphQL's requestLog): it holds one more listening
	// connection, so App.Close must be called. Off, tailing the log answers
	// 503 request_log_off.
	RequestLog bool
	// CORSOrigins are the origins whose pages may call the API from a
	// browser (httpx.CORS; "*": any); none by default.
	CORSOrigins []string
	// GraphQLError renders an error of /graphql refused before GraphQL
	// runs (authentication, rate limit, a busy server) in GraphQL's shape
	// (graph.WriteError); nil renders it in REST's envelope.
	GraphQLError func(http.ResponseWriter, *http.Request, error)
}

// errorWriter is the one error rendering of the server's middleware: the
// GraphQL shape for /graphql, REST's envelope for everything else.
func (o Options) errorWriter() func(http.ResponseWriter, *http.Request, error) {
	if o.GraphQLError == nil {
		return rest.WriteError
	}
	return func(w http.ResponseWriter, r *http.Request, err error) {
		if r.URL.Path == graphQLPath {
			o.GraphQLError(w, r, err)
			return
		}
		rest.WriteError(w, r, err)
	}
}

// graphQLPath is where GraphQL is served.
const graphQLPath = "/graphql"

// App is the assembled server.
type App struct {
	Handler  http.Handler
	Services areas.Services
	Metrics  *httpx.Metrics
	InFlight *httpx.InFlight
	// Credentials is the credential cache (nil when it is off).
	Credentials *auth.CredentialCache
	// RequestLog is the live request log of the sandboxes.
	RequestLog *requestlog.Feed
}

// Close stops what New started in the background (the credential cache's
// listener, the request log's, the areas': the event stream's and the
// listen sessions'). Call it before closing the database.
func (a *App) Close() {
	a.Credentials.Close()
	a.RequestLog.Close()
	a.Services.Close()
}

// New assembles the server.
func New(o Options) *App {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	kit := &op.Kit{DB: o.DB, Clock: o.Clock, Logger: o.Logger, Secret: secrets.NewSource(o.DB, o.ServerSecret)}
	kit.Jobs = o.Jobs
	// The server secret is loaded now rather than by the first write, so no
	// request pays for it; should the database not answer yet, op.Write
	// loads it later, before its transaction.
	if _, err := kit.Secret.Get(context.Background()); err != nil {
		o.Logger.Warn("server secret not loaded at start; the first write loads it", "error", err)
	}
	svc := areas.New(kit, areas.Options{Facts: o.FactsHook})
	svc.Accounts.IdentityAttempts = o.IdentityAttempts
	svc.Funding.SweepInterval = o.FundingSweepInterval
	svc.Billing.AdvanceBudget = o.AdvanceBudget
	svc.Webhooks.UseDestinations(o.WebhookDestinations)
	svc.Webhooks.UseListenConfig(o.Listen)
	var requests *requestlog.Feed
	var observers []httpx.Observer
	if o.RequestLog {
		requests = requestlog.New(o.DB, o.Clock, o.Logger)
		svc.Merchant.UseRequestLog(requests)
		observers = append(observers, requests)
	}
	if o.Workers != nil {
		// A worker or recurring job registered twice is a wiring mistake,
		// found at start.
		if err := svc.AddWorkers(o.Workers); err != nil {
			panic(err)
		}
		if o.Jobs != nil {
			if err := o.Jobs.AddPeriodicJobs(svc.PeriodicJobs()); err != nil {
				panic(err)
			}
		}
	}
	metrics := httpx.NewMetrics()
	authn := &auth.Authenticator{DB: o.DB, Clock: o.Clock,
		Cache: auth.NewCredentialCache(o.DB, o.Clock, o.CredentialCache, o.Logger)}

	writeError := o.errorWriter()
	inFlight := httpx.NewInFlight(o.MaxInFlight, writeError, "/healthz", "/readyz")
	metrics.ObserveInFlight(inFlight)
	metrics.ObserveReplicas(o.DB)

	r := chi.NewRouter()
	r.Use(httpx.TrailingSlash, httpx.RequestID, httpx.Trace, httpx.Recover(writeError), httpx.Log(o.Logger, observers...), metrics.Middleware,
		httpx.CORS(o.CORSOrigins), inFlight.Middleware, httpx.ReplicaReads)
	if o.ReportStatements {
		r.Use(httpx.ReportStatements)
	}
	r.NotFound(rest.NotFound)
	r.MethodNotAllowed(rest.MethodNotAllowed)

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	r.Get("/readyz", readyz(o.DB))
	r.Method(http.MethodGet, "/metrics", metrics.Handler())
	if o.Playground != nil {
		r.Method(http.MethodGet, "/playground", o.Playground)
		r.Method(http.MethodGet, "/playground/assets/*", o.Playground)
	}

	r.Group(func(r chi.Router) {
		r.Use(authenticate(authn, writeError), ratelimit.New(o.DB, o.Clock, o.RateLimits, o.Logger).Middleware(writeError))
		if o.GraphQL != nil {
			r.Handle(graphQLPath, o.GraphQL(&resolvers.Resolver{Svc: svc, Authenticate: authn.Authenticate}, o.Logger))
		}
		r.Method(http.MethodGet, "/cable", httpx.ClearDeadlinesOnUpgrade(cable.New(svc.Webhooks.Listen, svc.Merchant,
			cable.Options{WriteError: rest.WriteError, Authenticate: authn.Authenticate, Recheck: o.CableRecheck,
				Clock: o.Clock, Logger: o.Logger})))
		r.Group(func(r chi.Router) {
			r.Use(httpx.HandlerSpan("rest"))
			rest.Routes(r, svc)
		})
	})
	if o.Dashboard != nil {
		r.Method(http.MethodGet, "/dashboard", o.Dashboard)
		r.Method(http.MethodGet, "/dashboard/*", o.Dashboard)
	}
	if o.Docs != nil {
		r.Method(http.MethodGet, "/docs/*", o.Docs)
	}
	r.Get("/", frontDoor(o))
	return &App{Handler: r, Services: svc, Metrics: metrics, InFlight: inFlight, Credentials: authn.Cache,
		RequestLog: requests}
}

// authenticate resolves the Bearer credential into a principal. A request
// without one goes on anonymous (operations answer 401 themselves); a bad
// one is refused here, before anything runs.
func authenticate(a *auth.Authenticator, writeError func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, err := a.FromRequest(r)
			if err != nil {
				writeError(w, r, err)
				return
			}
			if p == nil {
				next.ServeHTTP(w, r)
				return
			}
			httpx.NotePrincipal(r.Context(), p)
			next.ServeHTTP(w, r.WithContext(auth.WithPrincipal(r.Context(), p)))
		})
	}
}

// readyz answers 200 when the database answers and every migration is
// applied, 503 otherwise.
func readyz(db *store.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		pending, err := migrations.Pending(ctx, db.Bun)
		switch {
		case err != nil:
			rest.WriteError(w, r, notReady("The database is unavailable"))
		case pending > 0:
			rest.WriteError(w, r, notReady("Database migrations are pending"))
		default:
			_, _ = w.Write([]byte("ready\n"))
		}
	}
}

// notReady is /readyz's 503, in the envelope like every error.
func notReady(msg string) error {
	return &apierr.Error{Status: http.StatusServiceUnavailable, Code: "not_ready", Message: msg,
		Headers: map[string]string{"Retry-After": "1"}}
}
