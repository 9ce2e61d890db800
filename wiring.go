package main

import (
	"log/slog"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/clock"
	"github.com/frame-oss/payments-server/internal/store"
)

// appOptions is the production wiring of the server.
func appOptions(db *store.DB, clk clock.Clock, logger *slog.Logger) app.Options {
	return app.Options{DB: db, Clock: clk, Logger: logger}
}
