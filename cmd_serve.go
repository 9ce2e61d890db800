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

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
)

// shutdownGrace is how long in-flight requests get to finish on SIGTERM.
const shutdownGrace = 15 * time.Second

func serveCommand(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr("ADDR", ":8080"), "listen address (env ADDR)")
	var dbf dbFlags
	dbf.register(fs)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	logger := newLogger(os.Stderr)
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, closeDB, err := dbf.database(ctx, logger)
	if err != nil {
		return err
	}
	defer closeDB()

	clk := clock.Real{}
	engine, err := jobs.New(db.Pool, jobs.Config{Logger: logger, Clock: clk})
	if err != nil {
		return err
	}
	if err := engine.Start(ctx); err != nil {
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

	a := app.New(appOptions(db, clk, logger))
	srv := &http.Server{Handler: a.Handler, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	logger.Info("serving", "addr", ln.Addr().String(), "graphql", "/graphql", "playground", "/playground")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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
