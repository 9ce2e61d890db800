package main

import (
	"log/slog"
	"net/http"
	"os"

	"github.com/frame-oss/payments-server/internal/platform/secrets"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers"
)

// appOptions is the production wiring of the server.
func appOptions(db *store.DB, clk clock.Clock, logger *slog.Logger) app.Options {
	return app.Options{DB: db, Clock: clk, Logger: logger, ServerSecret: os.Getenv(secrets.EnvVar),
		GraphQL: func(res *resolvers.Resolver, logger *slog.Logger) http.Handler {
			return graph.NewHandler(res, graph.Options{Logger: logger})
		},
		Playground: graph.PlaygroundHandler()}
}
