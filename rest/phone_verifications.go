package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// phoneVerificationRoutes mounts /v1/accounts/{id}/phone_verifications
// (spec doc 1 §4.6).
func phoneVerificationRoutes(r chi.Router, svc *accounts.PhoneVerifications) {
	h := phoneHandlers{svc}
	r.Get("/v1/accounts/{id}/phone_verifications", h.list)
	r.Post("/v1/accounts/{id}/phone_verifications", h.create)
	r.Get("/v1/accounts/{id}/phone_verifications/{pv}", h.get)
	r.Post("/v1/accounts/{id}/phone_verifications/{pv}/confirm", h.confirm)
}

type phoneHandlers struct{ svc *accounts.PhoneVerifications }

func (h phoneHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := accounts.PhoneVerificationFilter{Status: q.str("status")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.List(r.Context(), chi.URLParam(r, "id"), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h phoneHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreatePhoneVerificationInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	pv, err := h.svc.Create(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusCreated, pv, err)
}

func (h phoneHandlers) get(w http.ResponseWriter, r *http.Request) {
	pv, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "pv"))
	respond(w, r, http.StatusOK, pv, err)
}

func (h phoneHandlers) confirm(w http.ResponseWriter, r *http.Request) {
	var in models.ConfirmPhoneVerificationInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	pv, err := h.svc.Confirm(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "pv"), &in)
	respond(w, r, http.StatusOK, pv, err)
}
