package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// customerRoutes mounts /v1/customers (spec doc 2 §4.2, API-DECISIONS §4).
func customerRoutes(r chi.Router, svc *catalog.Service) {
	h := customerHandlers{svc}
	r.Post("/v1/customers", h.create)
	r.Get("/v1/customers", h.list)
	r.Get("/v1/customers/search", h.search)
	r.Get("/v1/customers/{id}", h.get)
	r.Patch("/v1/customers/{id}", h.update)
	r.Delete("/v1/customers/{id}", h.delete)
	r.Post("/v1/customers/{id}/block", h.block)
	r.Post("/v1/customers/{id}/unblock", h.unblock)
}

type customerHandlers struct{ svc *catalog.Service }

func (h customerHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateCustomerInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.CreateCustomer(r.Context(), &in)
	respond(w, r, http.StatusCreated, c, err)
}

func (h customerHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	h.respondList(w, r, q, catalog.CustomerFilter{Email: q.str("email")})
}

func (h customerHandlers) search(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := catalog.CustomerFilter{Q: q.str("q"), Name: q.str("name"), Email: q.str("email"), Phone: q.str("phone"),
		CreatedBefore: q.unix("created_before"), CreatedAfter: q.unix("created_after")}
	h.respondList(w, r, q, f)
}

func (h customerHandlers) respondList(w http.ResponseWriter, r *http.Request, q *query, f catalog.CustomerFilter) {
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListCustomers(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h customerHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.GetCustomer(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h customerHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateCustomerInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.UpdateCustomer(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, c, err)
}

func (h customerHandlers) delete(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteCustomer(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, d, err)
}

func (h customerHandlers) block(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.BlockCustomer(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h customerHandlers) unblock(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.UnblockCustomer(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}
