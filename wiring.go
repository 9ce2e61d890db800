package main

import (
	"log/slog"
	"net/http"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/clock"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/resolvers"
)

// appOptions is the production wiring of the server.
func appOptions(db *store.DB, clk clock.Clock, logger *slog.Logger) app.Options {
	return app.Options{DB: db, Clock: clk, Logger: logger,
		GraphQL:    func(res *resolvers.Resolver) http.Handler { return graph.NewHandler(res, graph.Options{}) },
		Playground: graph.PlaygroundHandler()}
}
