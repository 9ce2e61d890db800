package main

import (
	"flag"
	"log/slog"
	"net/http"
	"os"

	"github.com/frame-oss/payments-server/internal/platform/flagenv"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/secrets"

	"github.com/frame-oss/payments-server/docs"
	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/ratelimit"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// appOptions is the production wiring of the server.
func appOptions(db *store.DB, clk clock.Clock, logger *slog.Logger) app.Options {
	return app.Options{DB: db, Clock: clk, Logger: logger, ServerSecret: os.Getenv(secrets.EnvVar),
		GraphQL: func(res *resolvers.Resolver, logger *slog.Logger) http.Handler {
			return graph.NewHandler(res, graph.Options{Logger: logger})
		},
		Playground: graph.PlaygroundHandler(), GraphQLError: graph.WriteError, Docs: docs.Handler()}
}

// jobsConfig is the production wiring of the job engine: the application's
// workers, queues and periodic jobs (the engine adds its own).
func jobsConfig(db *store.DB, clk clock.Clock, logger *slog.Logger, delivery *webhooks.Delivery) (jobs.Config, error) {
	workers := river.NewWorkers()
	purgeRateLimits, err := ratelimit.AddPurgeJob(workers, db, clk, 0)
	if err != nil {
		return jobs.Config{}, err
	}
	queues, err := delivery.Register(workers)
	if err != nil {
		return jobs.Config{}, err
	}
	return jobs.Config{Logger: logger, Clock: clk, Workers: workers, Queues: queues,
		PeriodicJobs: []*river.PeriodicJob{purgeRateLimits}, PollOnly: db.Pooled()}, nil
}

// logRateLimits reports the rate limits serve runs with.
func logRateLimits(logger *slog.Logger, c ratelimit.Config) {
	p, s := c.Production.WithDefaults(), c.Sandbox.WithDefaults()
	logger.Info("rate limits per merchant (requests per second; 0 = off)",
		"production", p.Rate, "production_burst", p.Burst, "production_chunk", p.Chunk,
		"sandbox", s.Rate, "sandbox_burst", s.Burst, "sandbox_chunk", s.Chunk)
	cp, cs, ca := c.Client.Production.WithDefaults(), c.Client.Sandbox.WithDefaults(), c.Client.Address.WithDefaults()
	logger.Info("rate limits of publishable keys and session secrets (requests per second; 0 = off)",
		"production", cp.Rate, "production_burst", cp.Burst, "sandbox", cs.Rate, "sandbox_burst", cs.Burst,
		"per_address", ca.Rate, "per_address_burst", ca.Burst)
}

// graphqlFlags turn GraphQL's developer tools on or off: schema
// introspection and the GraphiQL playground at /playground, both on by
// default (DESIGN.md). Turn them off where the schema should not be
// explored. Introspection answers only secret keys unless
// anonymousIntrospection opens it to anyone, for local development.
type graphqlFlags struct{ introspection, anonymousIntrospection, playground bool }

// register adds serve's GraphQL flags. Each defaults to its environment
// variable (getenv, e.g. os.Getenv) when set, else on; an environment
// value that does not parse as a boolean is an error.
func (g *graphqlFlags) register(fs *flag.FlagSet, getenv func(string) string) error {
	g.introspection, g.playground = true, true
	f := flagenv.New(fs, getenv)
	f.Bool(&g.introspection, "graphql-introspection", "GRAPHQL_INTROSPECTION", "serve GraphQL schema introspection (to secret keys); default true")
	f.Bool(&g.anonymousIntrospection, "graphql-introspection-anonymous", "GRAPHQL_INTROSPECTION_ANONYMOUS",
		"serve GraphQL schema introspection without a secret key, for local development; default false")
	f.Bool(&g.playground, "playground", "GRAPHQL_PLAYGROUND", "serve the GraphiQL playground at /playground; default true")
	return f.Err()
}

// apply leaves out what the flags turned off: the playground route, and
// introspection from /graphql; or opens introspection to every caller.
// /graphql's websocket also admits the CORS origins.
func (g graphqlFlags) apply(o *app.Options, c corsFlag) {
	if !g.playground {
		o.Playground = nil
	}
	o.GraphQL = c.graphQL(graph.Options{DisableIntrospection: !g.introspection, AnonymousIntrospection: g.anonymousIntrospection})
}

// registerDeliveryFlags adds serve's webhook delivery settings to fs, each
// defaulting to its environment variable when set (docs/operations.md);
// local is decided once the listen address is known
// (sandboxLocal.destinations).
func registerDeliveryFlags(fs *flag.FlagSet, getenv func(string) string, c *webhooks.DeliveryConfig, local *sandboxLocal) error {
	c.Timeout = webhooks.DefaultDeliveryTimeout
	c.Workers = webhooks.DefaultDeliveryWorkers
	f := flagenv.New(fs, getenv)
	f.Duration(&c.Timeout, "webhook-timeout", "WEBHOOK_TIMEOUT", "how long one webhook delivery attempt may take")
	c.ConnectTimeout = webhooks.DefaultConnectTimeout
	f.Duration(&c.ConnectTimeout, "webhook-connect-timeout", "WEBHOOK_CONNECT_TIMEOUT", "how long a webhook delivery may take to connect (TCP and TLS)")
	f.Int(&c.Workers, "webhook-workers", "WEBHOOK_WORKERS", "webhook deliveries this process makes at once (each holds a database connection)")
	local.register(fs, f, getenv)
	return f.Err()
}
