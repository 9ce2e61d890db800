package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// idvRoutes mounts /v1/idv (spec doc 1 §4.4): the document check an
// onboarding secret runs for its account.
func idvRoutes(r chi.Router, svc *accounts.IDV) {
	r.Post("/v1/idv/session", func(w http.ResponseWriter, r *http.Request) {
		var empty struct{}
		if err := decode(r, &empty); err != nil {
			WriteError(w, r, err)
			return
		}
		s, err := svc.StartSession(r.Context())
		status := http.StatusCreated
		if err == nil && s.Reused {
			status = http.StatusOK
		}
		respond(w, r, status, s, err)
	})
	r.Post("/v1/idv/complete", func(w http.ResponseWriter, r *http.Request) {
		var in models.CompleteIDVInput
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		res, err := svc.Complete(r.Context(), &in)
		respond(w, r, http.StatusOK, res, err)
	})
}
