package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// productRoutes mounts /v1/products and their phases (spec doc 2 §4.1).
func productRoutes(r chi.Router, svc *catalog.Service) {
	h, ph := productHandlers{svc.Products}, phaseHandlers{svc.Phases}
	r.Post("/v1/products", create(h.svc.Create))
	r.Get("/v1/products", h.list)
	r.Get("/v1/products/search", h.search)
	r.Get("/v1/products/{id}", get(h.svc.Get))
	r.Patch("/v1/products/{id}", update(h.svc.Update))
	r.Delete("/v1/products/{id}", action(h.svc.Delete))
	r.Get("/v1/products/{id}/phases", ph.list)
	r.Post("/v1/products/{id}/phases", ph.create)
	r.Patch("/v1/products/{id}/phases/bulk_update", ph.bulkUpdate)
	r.Get("/v1/products/{id}/phases/{phase}", ph.get)
	r.Patch("/v1/products/{id}/phases/{phase}", ph.update)
	r.Delete("/v1/products/{id}/phases/{phase}", ph.delete)
}

type productHandlers struct{ svc *catalog.Products }

type phaseHandlers struct{ svc *catalog.Phases }

func (h productHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.List(r.Context(), catalog.ProductFilter{}, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

// search answers {meta, products} (spec doc 2 §4.1).
func (h productHandlers) search(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := filter[catalog.ProductFilter](q)
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.List(r.Context(), f, op.ListParams{PageParams: pp})
	if err != nil {
		WriteError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Meta     models.ListMeta   `json:"meta"`
		Products []*models.Product `json:"products"`
	}{page.Meta(r.URL.Path), page.Items})
}

// phasesBody is the {meta {product_id[, updated_count]}, phases} body.
type phasesBody struct {
	Meta   phasesMeta             `json:"meta"`
	Phases []*models.ProductPhase `json:"phases"`
}

type phasesMeta struct {
	ProductID    string `json:"product_id"`
	UpdatedCount *int   `json:"updated_count,omitempty"`
}

func (h phaseHandlers) list(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	phases, err := h.svc.List(r.Context(), id)
	respond(w, r, http.StatusOK, phasesBody{Meta: phasesMeta{ProductID: id}, Phases: phases}, err)
}

func (h phaseHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreatePhaseInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	p, err := h.svc.Create(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusCreated, p, err)
}

func (h phaseHandlers) get(w http.ResponseWriter, r *http.Request) {
	p, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "phase"))
	respond(w, r, http.StatusOK, p, err)
}

func (h phaseHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdatePhaseInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	p, err := h.svc.Update(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "phase"), &in)
	respond(w, r, http.StatusOK, p, err)
}

func (h phaseHandlers) bulkUpdate(w http.ResponseWriter, r *http.Request) {
	var in models.BulkUpdatePhasesInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	id := chi.URLParam(r, "id")
	phases, n, err := h.svc.BulkUpdate(r.Context(), id, &in)
	respond(w, r, http.StatusOK, phasesBody{Meta: phasesMeta{ProductID: id, UpdatedCount: &n}, Phases: phases}, err)
}

func (h phaseHandlers) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.Delete(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, "phase")); err != nil {
		WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
