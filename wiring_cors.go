package main

import (
	"flag"
	"log/slog"
	"net/http"

	"github.com/frame-oss/payments-server/graph"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/resolvers"
)

// corsFlag is serve's --cors-origins: the origins whose pages may call the
// API from a browser (docs/security.md, "Cross-origin requests"). Off by
// default: only the server's own pages (the dashboard, the playground)
// call it from a browser.
type corsFlag struct {
	raw     string
	origins []string
}

// register adds --cors-origins, defaulting to CORS_ORIGINS.
func (c *corsFlag) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&c.raw, "cors-origins", getenv("CORS_ORIGINS"),
		`origins whose pages may call /graphql, /v1 and /openapi.json from a browser, comma-separated `+
			`(https://dashboard.example.com), or "*" for any; default none (env CORS_ORIGINS)`)
}

// parse checks the origins once the flags are parsed.
func (c *corsFlag) parse() error {
	origins, err := httpx.ParseCORSOrigins(c.raw)
	c.origins = origins
	return err
}

// graphQL builds /graphql with the GraphQL flags' options, letting the
// CORS origins open the subscriptions' websocket too.
func (c corsFlag) graphQL(opts graph.Options) func(*resolvers.Resolver, *slog.Logger) http.Handler {
	opts.Origins = c.origins
	return func(res *resolvers.Resolver, logger *slog.Logger) http.Handler {
		opts := opts
		opts.Logger = logger
		return graph.NewHandler(res, opts)
	}
}

// apply lets the origins call the API.
func (c corsFlag) apply(o *app.Options, logger *slog.Logger) {
	o.CORSOrigins = c.origins
	if len(c.origins) > 0 {
		logger.Info("cross-origin requests allowed", "origins", c.origins, "paths", httpx.CORSPaths)
	}
}
