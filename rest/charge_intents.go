package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// chargeIntentRoutes mounts /v1/charge_intents (deprecated, wire-compatible:
// spec doc 2 §4.10, API-DECISIONS §4) and the sandbox's 3-D Secure helper.
func chargeIntentRoutes(r chi.Router, svc *money.Service) {
	h := chargeIntentHandlers{svc}
	r.Post("/v1/charge_intents", h.create)
	r.Get("/v1/charge_intents", h.list)
	r.Get("/v1/charge_intents/{id}", h.get)
	r.Patch("/v1/charge_intents/{id}", h.update)
	r.Post("/v1/charge_intents/{id}/confirm", h.confirm)
	r.Post("/v1/charge_intents/{id}/capture", h.capture)
	r.Post("/v1/charge_intents/{id}/cancel", h.cancel)
	r.Post("/v1/charge_intents/{id}/void_remaining", h.voidRemaining)
	r.Post("/v1/test_helpers/charge_intents/{id}/complete_3d_secure", h.complete3DS)
}

type chargeIntentHandlers struct{ svc *money.Service }

func (h chargeIntentHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateChargeIntentInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	ci, err := h.svc.CreateChargeIntent(r.Context(), &in)
	respond(w, r, http.StatusCreated, ci, err)
}

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

func (h chargeIntentHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateChargeIntentInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	ci, err := h.svc.UpdateChargeIntent(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, ci, err)
}

func (h chargeIntentHandlers) confirm(w http.ResponseWriter, r *http.Request) {
	var in models.ConfirmChargeIntentInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	ci, err := h.svc.ConfirmChargeIntent(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, ci, err)
}

func (h chargeIntentHandlers) capture(w http.ResponseWriter, r *http.Request) {
	var in models.CaptureChargeIntentInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	ci, err := h.svc.CaptureChargeIntent(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, ci, err)
}

func (h chargeIntentHandlers) cancel(w http.ResponseWriter, r *http.Request) {
	ci, err := h.svc.CancelChargeIntent(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, ci, err)
}

func (h chargeIntentHandlers) voidRemaining(w http.ResponseWriter, r *http.Request) {
	ci, err := h.svc.VoidRemainingChargeIntent(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, ci, err)
}

func (h chargeIntentHandlers) complete3DS(w http.ResponseWriter, r *http.Request) {
	ci, err := h.svc.CompleteChargeIntentThreeDSecure(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, ci, err)
}
