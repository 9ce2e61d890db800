package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// chargeIntentRoutes mounts /v1/charge_intents (deprecated, wire-compatible:
// spec doc 2 §4.10, API-DECISIONS §4) and the sandbox's 3-D Secure helper.
func chargeIntentRoutes(r chi.Router, svc *money.Service) {
	h := chargeIntentHandlers{svc}
	r.Post("/v1/charge_intents", create(h.svc.CreateChargeIntent))
	r.Get("/v1/charge_intents", h.list)
	r.Get("/v1/charge_intents/{id}", h.get)
	r.Patch("/v1/charge_intents/{id}", update(h.svc.UpdateChargeIntent))
	r.Post("/v1/charge_intents/{id}/confirm", update(h.svc.ConfirmChargeIntent))
	r.Post("/v1/charge_intents/{id}/capture", update(h.svc.CaptureChargeIntent))
	r.Post("/v1/charge_intents/{id}/cancel", action(h.svc.CancelChargeIntent))
	r.Post("/v1/charge_intents/{id}/void_remaining", action(h.svc.VoidRemainingChargeIntent))
	r.Post("/v1/test_helpers/charge_intents/{id}/complete_3d_secure", action(h.svc.CompleteChargeIntentThreeDSecure))
}

type chargeIntentHandlers struct{ svc *money.Service }

func (h chargeIntentHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := money.ChargeIntentFilter{Q: q.str("q"), Status: q.str("status"), CustomerID: q.str("customer"),
		AccountID: q.str("account")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListChargeIntents(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h chargeIntentHandlers) get(w http.ResponseWriter, r *http.Request) {
	ci, err := h.svc.GetChargeIntent(r.Context(), chi.URLParam(r, "id"), newQuery(r).str("client_secret"))
	respond(w, r, http.StatusOK, ci, err)
}
