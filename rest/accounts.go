package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// accountRoutes mounts /v1/accounts (API-DECISIONS §4).
func accountRoutes(r chi.Router, svc *accounts.Accounts) {
	h := accountHandlers{svc}
	r.Post("/v1/accounts", h.create)
	r.Get("/v1/accounts", h.list)
	r.Get("/v1/accounts/search", h.search)
	r.Get("/v1/accounts/{id}", h.get)
	r.Patch("/v1/accounts/{id}", h.update)
	r.Delete("/v1/accounts/{id}", h.disable)
	r.Post("/v1/accounts/{id}/restrict", h.restrict)
	r.Post("/v1/accounts/{id}/unrestrict", h.unrestrict)
}

type accountHandlers struct{ svc *accounts.Accounts }

func (h accountHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateAccountInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.svc.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, a, err)
}

func (h accountHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := accounts.AccountFilter{Status: q.str("status"), Type: q.str("type"), ExternalID: q.str("external_id"),
		IncludeDisabled: q.optBool("include_disabled")}
	h.respondList(w, r, q, f)
}

// search is the list with name and e-mail matching; it includes disabled
// accounts.
func (h accountHandlers) search(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	includeDisabled := true
	f := accounts.AccountFilter{Name: q.str("name"), Email: q.str("email"), ExternalID: q.str("external_id"),
		Status: q.str("status"), Type: q.str("type"), IncludeDisabled: &includeDisabled}
	h.respondList(w, r, q, f)
}

func (h accountHandlers) respondList(w http.ResponseWriter, r *http.Request, q *query, f accounts.AccountFilter) {
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.List(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h accountHandlers) get(w http.ResponseWriter, r *http.Request) {
	a, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h accountHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateAccountInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.svc.Update(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, a, err)
}

func (h accountHandlers) disable(w http.ResponseWriter, r *http.Request) {
	a, err := h.svc.Disable(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h accountHandlers) restrict(w http.ResponseWriter, r *http.Request) {
	a, err := h.svc.Restrict(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h accountHandlers) unrestrict(w http.ResponseWriter, r *http.Request) {
	a, err := h.svc.Unrestrict(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}
