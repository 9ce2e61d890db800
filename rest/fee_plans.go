package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// feePlanRoutes mounts /v1/transfer_fee_plans and
// /v1/transfer_billing_agreements (spec doc 2 §4.8, API-DECISIONS §4).
func feePlanRoutes(r chi.Router, svc *money.Service) {
	h := feePlanHandlers{svc.FeePlans, svc.Agreements}
	r.Post("/v1/transfer_fee_plans", h.createPlan)
	r.Get("/v1/transfer_fee_plans", list(svc.FeePlans.List))
	r.Get("/v1/transfer_fee_plans/{id}", h.getPlan)
	r.Post("/v1/transfer_billing_agreements", h.createAgreement)
	r.Get("/v1/transfer_billing_agreements", list(svc.Agreements.List))
	r.Get("/v1/transfer_billing_agreements/{id}", h.getAgreement)
	r.Patch("/v1/transfer_billing_agreements/{id}", h.updateAgreement)
}

type feePlanHandlers struct {
	plans      *money.FeePlans
	agreements *money.Agreements
}

func (h feePlanHandlers) createPlan(w http.ResponseWriter, r *http.Request) {
	var in models.CreateFeePlanInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	p, err := h.plans.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, p, err)
}

func (h feePlanHandlers) getPlan(w http.ResponseWriter, r *http.Request) {
	p, err := h.plans.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, p, err)
}

func (h feePlanHandlers) createAgreement(w http.ResponseWriter, r *http.Request) {
	var in models.CreateAgreementInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.agreements.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, a, err)
}

func (h feePlanHandlers) getAgreement(w http.ResponseWriter, r *http.Request) {
	a, err := h.agreements.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h feePlanHandlers) updateAgreement(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateAgreementInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.agreements.Update(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, a, err)
}
