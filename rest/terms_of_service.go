package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// termsOfServiceRoutes mounts /v1/terms_of_service, as the real service's
// clients call it: POST mints a token, PATCH accepts it.
func termsOfServiceRoutes(r chi.Router, svc *accounts.Terms) {
	r.Post("/v1/terms_of_service", func(w http.ResponseWriter, r *http.Request) {
		var in models.CreateTermsOfServiceInput
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		t, err := svc.CreateToken(r.Context(), &in)
		respond(w, r, http.StatusCreated, t, err)
	})
	r.Patch("/v1/terms_of_service", func(w http.ResponseWriter, r *http.Request) {
		var in models.AcceptTermsOfServiceInput
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		t, err := svc.Accept(r.Context(), &in)
		respond(w, r, http.StatusOK, t, err)
	})
}
