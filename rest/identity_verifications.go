package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// identityVerificationRoutes mounts /v1/accounts/{id}/identity_verifications
// (spec doc 1 §4.5).
func identityVerificationRoutes(r chi.Router, svc *accounts.IdentityRuns) {
	h := runHandlers{svc}
	r.Get("/v1/accounts/{id}/identity_verifications", h.list)
	r.Post("/v1/accounts/{id}/identity_verifications", h.create)
	r.Get("/v1/accounts/{id}/identity_verifications/{run}", h.get)
}

type runHandlers struct{ svc *accounts.IdentityRuns }

func (h runHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := accounts.IdentityVerificationFilter{Status: q.str("status"), Provider: q.str("provider")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.List(r.Context(), chi.URLParam(r, "id"), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

// create takes an empty body: a run checks the account's data as stored.
func (h runHandlers) create(w http.ResponseWriter, r *http.Request) {
	var empty struct{}
	if err := decode(r, &empty); err != nil {
		WriteError(w, r, err)
		return
	}
	run, err := h.svc.Create(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusCreated, run, err)
}

func (h runHandlers) get(w http.ResponseWriter, r *http.Request) {
	run, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "run"))
	respond(w, r, http.StatusOK, run, err)
}
