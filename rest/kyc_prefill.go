package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// kycPrefillRoutes mounts /v1/accounts/{id}/kyc_prefill (spec doc 1 §4.7).
func kycPrefillRoutes(r chi.Router, svc *accounts.Accounts) {
	r.Post("/v1/accounts/{id}/kyc_prefill/confirm", func(w http.ResponseWriter, r *http.Request) {
		var empty struct{}
		if err := decode(r, &empty); err != nil {
			WriteError(w, r, err)
			return
		}
		a, err := svc.ConfirmKYCPrefill(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, a, err)
	})
}
