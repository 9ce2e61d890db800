package rest

import (
	"context"
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// productRoutes mounts /v1/products and their phases (spec doc 2 §4.1).
func productRoutes(r routes, svc *catalog.Service) {
	h, ph := productHandlers{svc.Products}, phaseHandlers{svc.Phases}
	r.Post("/v1/products", create(h.svc.Create))
	// The plain list takes no filter: search does (spec doc 2 §4.1).
	r.Get("/v1/products", list(func(ctx context.Context, _ op.NoFilter, lp op.ListParams) (op.Page[*models.Product], error) {
		return h.svc.List(ctx, catalog.ProductFilter{}, lp)
	}))
	r.Get("/v1/products/search", handled(h.search, wireShape{query: filterParams[catalog.ProductFilter](), responses: ok[productsPage](http.StatusOK)}))
	r.Get("/v1/products/{id}", get(h.svc.Get))
	r.Patch("/v1/products/{id}", update(h.svc.Update))
	r.Delete("/v1/products/{id}", action(h.svc.Delete))
	r.Get("/v1/products/{id}/phases", handled(ph.list, wireShape{responses: ok[phasesBody](http.StatusOK)}))
	r.Post("/v1/products/{id}/phases", createIn(ph.svc.Create))
	r.Patch("/v1/products/{id}/phases/bulk_update", handled(ph.bulkUpdate,
		wireShape{body: reflect.TypeFor[models.BulkUpdatePhasesInput](), responses: ok[phasesBody](http.StatusOK)}))
	r.Get("/v1/products/{id}/phases/{phase}", getOf("phase", ph.svc.Get))
	r.Patch("/v1/products/{id}/phases/{phase}", updateOf("phase", ph.svc.Update))
	r.Delete("/v1/products/{id}/phases/{phase}", deleteOf("phase", ph.svc.Delete))
}

type productHandlers struct{ svc *catalog.Products }

type phaseHandlers struct{ svc *catalog.Phases }

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
	writeJSON(w, http.StatusOK, productsPage{page.Meta(r.URL.Path), page.Items})
}

// productsPage is the search's {meta, products} body.
type productsPage struct {
	Meta     models.ListMeta   `json:"meta"`
	Products []*models.Product `json:"products"`
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
