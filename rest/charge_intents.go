package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// chargeIntentRoutes mounts /v1/charge_intents (deprecated, wire-compatible:
// spec doc 2 §4.10, API-DECISIONS §4) and the sandbox's 3-D Secure helper.
func chargeIntentRoutes(r routes, svc *money.Service) {
	cis := svc.ChargeIntents
	r.Post("/v1/charge_intents", create(cis.Create))
	r.Get("/v1/charge_intents", list(cis.ListWithSecrets))
	r.Get("/v1/charge_intents/{id}", handled(func(w http.ResponseWriter, r *http.Request) {
		ci, err := cis.Get(r.Context(), chi.URLParam(r, "id"), newQuery(r).str("client_secret"))
		respond(w, r, http.StatusOK, ci, err)
	}, wireShape{query: params(false, "client_secret"), responses: ok[*models.ChargeIntent](http.StatusOK)}))
	r.Patch("/v1/charge_intents/{id}", update(cis.Update))
	r.Post("/v1/charge_intents/{id}/confirm", update(cis.Confirm))
	r.Post("/v1/charge_intents/{id}/capture", update(cis.Capture))
	r.Post("/v1/charge_intents/{id}/cancel", action(cis.Cancel))
	r.Post("/v1/charge_intents/{id}/void_remaining", action(cis.VoidRemaining))
	r.Post("/v1/test_helpers/charge_intents/{id}/complete_3d_secure", action(cis.CompleteThreeDSecure))
}
