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
	h := customerHandlers{svc.Customers}
	r.Post("/v1/customers", h.create)
	r.Get("/v1/customers", h.list)
	r.Get("/v1/customers/search", list(svc.Customers.List))
	r.Get("/v1/customers/{id}", h.get)
	r.Patch("/v1/customers/{id}", h.update)
	r.Delete("/v1/customers/{id}", h.delete)
	r.Post("/v1/customers/{id}/block", h.block)
	r.Post("/v1/customers/{id}/unblock", h.unblock)
}

type customerHandlers struct{ svc *catalog.Customers }

func (h customerHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateCustomerInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, c, err)
}

// list filters by e-mail only; the other parameters of the customer
// filter are the search's.
func (h customerHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := catalog.CustomerFilter{Email: q.str("email")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.List(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h customerHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h customerHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateCustomerInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.Update(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, c, err)
}

func (h customerHandlers) delete(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.Delete(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, d, err)
}

func (h customerHandlers) block(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Block(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h customerHandlers) unblock(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Unblock(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}
