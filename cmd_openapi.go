package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/resolvers/areas"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/rest"
)

// openAPICommand prints the OpenAPI document GET /openapi.json serves. The
// document is derived from the routes as they mount, which needs the
// services but no database: tools (make openapi-lint, client generators)
// get it without a server.
func openAPICommand(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("openapi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	logger := slog.New(slog.DiscardHandler)
	svc := areas.New(&op.Kit{Clock: clock.Real{}, Logger: logger}, areas.Options{})
	r := chi.NewRouter()
	rest.Routes(r, svc)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if rec.Code != http.StatusOK {
		return fmt.Errorf("openapi: the document answered %d: %s", rec.Code, rec.Body)
	}
	_, err := stdout.Write(rec.Body.Bytes())
	return err
}
