package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// feePlanRoutes mounts /v1/transfer_fee_plans and
// /v1/transfer_billing_agreements (spec doc 2 §4.8, API-DECISIONS §4).
func feePlanRoutes(r chi.Router, svc *money.Service) {
	h := feePlanHandlers{svc}
	r.Post("/v1/transfer_fee_plans", h.createPlan)
	r.Get("/v1/transfer_fee_plans", h.listPlans)
	r.Get("/v1/transfer_fee_plans/{id}", h.getPlan)
	r.Post("/v1/transfer_billing_agreements", h.createAgreement)
	r.Get("/v1/transfer_billing_agreements", h.listAgreements)
	r.Get("/v1/transfer_billing_agreements/{id}", h.getAgreement)
	r.Patch("/v1/transfer_billing_agreements/{id}", h.updateAgreement)
}

type feePlanHandlers struct{ svc *money.Service }

func (h feePlanHandlers) createPlan(w http.ResponseWriter, r *http.Request) {
	var in models.CreateFeePlanInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	p, err := h.svc.CreateFeePlan(r.Context(), &in)
	respond(w, r, http.StatusCreated, p, err)
}

func (h feePlanHandlers) listPlans(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListFeePlans(r.Context(), op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h feePlanHandlers) getPlan(w http.ResponseWriter, r *http.Request) {
	p, err := h.svc.GetFeePlan(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, p, err)
}

func (h feePlanHandlers) createAgreement(w http.ResponseWriter, r *http.Request) {
	var in models.CreateAgreementInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.svc.CreateAgreement(r.Context(), &in)
	respond(w, r, http.StatusCreated, a, err)
}

func (h feePlanHandlers) listAgreements(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListAgreements(r.Context(), op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h feePlanHandlers) getAgreement(w http.ResponseWriter, r *http.Request) {
	a, err := h.svc.GetAgreement(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h feePlanHandlers) updateAgreement(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateAgreementInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.svc.UpdateAgreement(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, a, err)
}
