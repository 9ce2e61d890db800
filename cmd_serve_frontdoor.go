package main

import (
	"context"
	"log/slog"
	"net"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// baseURL is where a browser on this machine reaches a server listening
// on addr: an unspecified address (":8080", "0.0.0.0", "::") reads as
// localhost.
func baseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// logEntryPoints logs what a new user opens first: the start page and,
// when served, the playground, the dashboard, the OpenAPI document and
// the docs.
func logEntryPoints(logger *slog.Logger, addr net.Addr, o app.Options) {
	base := baseURL(addr)
	attrs := []any{"home", base + "/", "openapi", base + "/openapi.json", "graphql", base + "/graphql"}
	if o.Playground != nil {
		attrs = append(attrs, "playground", base+"/playground")
	}
	if o.Dashboard != nil {
		attrs = append(attrs, "dashboard", base+"/dashboard")
	}
	if o.Docs != nil {
		attrs = append(attrs, "docs", base+"/docs/")
	}
	logger.Info("open "+base+"/ for the playground, the dashboard, the OpenAPI document and the docs", attrs...)
}

// warnWithoutMerchant warns when the database holds no merchant: every key
// is then refused, most often because a command that made one ran with
// another data dir (each data dir is a database of its own).
func warnWithoutMerchant(ctx context.Context, logger *slog.Logger, db *store.DB, database string) {
	n, err := db.Bun.NewSelect().Model((*auth.Merchant)(nil)).Count(ctx)
	if err != nil {
		logger.Warn("could not count merchants", "error", err)
		return
	}
	logger.Info("database", "uses", database, "merchants", n)
	if n == 0 {
		logger.Warn("no merchant in this database, so every API key is refused: create one with " +
			"'server merchants create --name NAME' using the same data dir (" + database + ")")
	}
}
