package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/payments"
)

// clientConfigurationRoutes mounts the client configuration the real
// service's SDK reads (docs/sandbox.md, "Resources from the SDK").
func clientConfigurationRoutes(r chi.Router, svc payments.ClientConfig) {
	r.Get("/v1/config/evervault", read(svc.Evervault))
	r.Get("/v1/config/sift", read(svc.Sift))
	r.Get("/v1/client/wallet/google_pay", read(svc.GooglePay))
}

// read serves a GET of an object that has no id: the caller's own.
func read[T any](fn func(context.Context) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r.Context())
		respond(w, r, http.StatusOK, v, err)
	}
}
