package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/auth"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/ratelimit"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/tracing"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// shutdownGrace is how long in-flight requests get to finish on SIGTERM.
const shutdownGrace = 15 * time.Second

func serveCommand(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("ADDR", ":8080"), "listen address (env ADDR)")
	debugAddr := fs.String("debug-addr", os.Getenv("DEBUG_ADDR"), "address serving Go runtime profiles at /debug/pprof/, e.g. 127.0.0.1:6060; empty: off (env DEBUG_ADDR)")
	var dbf dbFlags
	dbf.register(fs)
	var replicas replicaFlags
	replicas.register(fs)
	var gqlf graphqlFlags
	if err := gqlf.register(fs, os.Getenv); err != nil {
		return err
	}
	var dashf dashboardFlag
	if err := dashf.register(fs, os.Getenv); err != nil {
		return err
	}
	var corsf corsFlag
	corsf.register(fs, os.Getenv)
	limits := httpx.DefaultLimits()
	if err := limits.RegisterFlags(fs, os.Getenv); err != nil {
		return err
	}
	credCache := auth.DefaultCacheConfig()
	if err := credCache.RegisterFlags(fs, os.Getenv); err != nil {
		return err
	}
	var deliveryCfg webhooks.DeliveryConfig
	var sandboxLocal sandboxLocal
	if err := registerDeliveryFlags(fs, os.Getenv, &deliveryCfg, &sandboxLocal); err != nil {
		return err
	}
	rateLimits := ratelimit.DefaultConfig()
	if err := rateLimits.RegisterFlags(fs, os.Getenv); err != nil {
		return err
	}
	identityAttempts := 0
	fe := flagenv.New(fs, os.Getenv)
	fe.Int(&identityAttempts, "identity-attempts", "IDENTITY_VERIFICATION_ATTEMPTS",
		"identity verification attempts per account (errored runs do not count); default 3")
	sweepEvery := funding.DefaultSweepInterval
	fe.Duration(&sweepEvery, "funding-sweep-interval", "FUNDING_SWEEP_INTERVAL",
		"how often due payout funding schedules are run; default 10s")
	if err := fe.Err(); err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if err := corsf.parse(); err != nil {
		return err
	}
	if err := limits.Validate(); err != nil {
		return err
	}
	if err := credCache.Validate(); err != nil {
		return err
	}
	if err := rateLimits.Validate(); err != nil {
		return err
	}
	webhookDestinations, err := sandboxLocal.destinations(*addr)
	if err != nil {
		return err
	}
	deliveryCfg.Destinations = webhookDestinations
	logger, logs, err := newLogger(os.Stderr)
	if err != nil {
		return err
	}
	defer logs.Close() // deferred first, so it runs last: every other shutdown step logs before it
	slog.SetDefault(logger)
	tuneGC()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Traces over OTLP when an endpoint is configured (OTEL_EXPORTER_OTLP_*);
	// flushed last, after the requests and jobs have ended.
	traced, stopTracing, err := tracing.Setup(ctx, os.Getenv)
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := stopTracing(sctx); err != nil {
			logger.Warn("traces not flushed", "error", err)
		}
	}()
	logger.Info("tracing", "otlp", traced)

	db, closeDB, err := dbf.database(ctx, logger)
	if err != nil {
		return err
	}
	defer closeDB()
	closeReplicas, err := replicas.open(ctx, db, dbf.embedded, dbf.dataDir, logger)
	if err != nil {
		return err
	}
	defer closeReplicas()

	clk := clock.Real{}
	delivery := webhooks.NewDelivery(db, secrets.NewSource(db, os.Getenv(secrets.EnvVar)), clk, logger, deliveryCfg)
	jobsCfg, err := jobsConfig(db, clk, logger, delivery)
	if err != nil {
		return err
	}
	if sweepEvery < time.Second {
		return errors.New("serve: --funding-sweep-interval must be at least 1s")
	}
	engine, err := jobs.New(db.Pool, jobsCfg)
	if err != nil {
		return err
	}
	// Jobs stop after the requests have drained (deferred calls run last
	// first: after srv.Shutdown below, before the database closes).
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := engine.Stop(sctx); err != nil {
			logger.Warn("jobs did not stop cleanly", "error", err)
		}
	}()

	// The dispatcher moves queued webhook deliveries into jobs; it stops
	// before the engine (deferred calls run last first).
	dispatcher := delivery.Dispatcher(engine)
	dispatcher.Start(ctx)
	defer dispatcher.Stop()

	o := appOptions(db, clk, logger)
	gqlf.apply(&o, corsf)
	dashf.apply(&o)
	corsf.apply(&o, logger)
	o.MaxInFlight = limits.MaxInFlight
	o.RateLimits = rateLimits
	o.CredentialCache = credCache
	logRateLimits(logger, rateLimits)
	o.WebhookDestinations = webhookDestinations
	logger.Info("webhook destinations", "sandbox_local", webhookDestinations.SandboxLocal)
	o.Jobs, o.Workers = engine, jobsCfg.Workers
	o.IdentityAttempts = identityAttempts
	o.FundingSweepInterval = sweepEvery
	a := app.New(o)
	defer a.Close() // deferred calls run last first: after the requests drain, before the jobs and the database stop
	// The engine starts once app.New has registered the areas' workers and
	// recurring jobs.
	if err := engine.Start(ctx); err != nil {
		return err
	}
	if err := startDebugServer(ctx, *debugAddr, logger); err != nil {
		return err
	}
	srv := httpx.NewServer(a.Handler, limits, logger)
	srv.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	logger.Info("serving", "addr", ln.Addr().String(), "graphql", "/graphql", "playground", o.Playground != nil)
	logEntryPoints(logger, ln.Addr(), o)
	warnWithoutMerchant(ctx, logger, db, dbf.describe())
	errc := make(chan error, 1)
	logger.Info("http limits", "read_header_timeout", limits.ReadHeaderTimeout.String(),
		"read_timeout", limits.ReadTimeout.String(), "write_timeout", limits.WriteTimeout.String(),
		"idle_timeout", limits.IdleTimeout.String(), "max_header_bytes", limits.MaxHeaderBytes,
		"max_conns", limits.MaxConns, "max_conns_per_client", limits.MaxConnsPerClient, "max_in_flight", limits.MaxInFlight, "max_body_bytes", httpx.MaxBodyBytes)
	go func() { errc <- srv.Serve(limits.Listener(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down: draining requests, then jobs")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func migrateCommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	_, closeDB, err := dbf.database(context.Background(), cliLogger())
	if err != nil {
		return err
	}
	closeDB()
	_, _ = io.WriteString(stdout, "migrations applied\n")
	return nil
}
