package rest

import (
	"context"
	"net/http"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// productRoutes mounts /v1/products and their phases (spec doc 2 §4.1).
func productRoutes(r routes, svc *catalog.Service) {
	h, phases := productHandlers{svc.Products}, svc.Phases
	r.Post("/v1/products", create(h.svc.Create))
	// The plain list takes no filter: search does (spec doc 2 §4.1).
	r.Get("/v1/products", list(func(ctx context.Context, _ op.NoFilter, lp op.ListParams) (op.Page[*models.Product], error) {
		return h.svc.List(ctx, catalog.ProductFilter{}, lp)
	}))
	r.Get("/v1/products/search", handled(h.search, wireShape{query: filterParams[catalog.ProductFilter](), responses: pageFrom("products", h.svc.List)}))
	r.Get("/v1/products/{id}", get(h.svc.Get))
	r.Patch("/v1/products/{id}", update(h.svc.Update))
	r.Delete("/v1/products/{id}", action(h.svc.Delete))
	r.Get("/v1/products/{id}/phases", phaseList(phases.List, productPhasesBodyOf))
	r.Post("/v1/products/{id}/phases", createIn(phases.Create))
	r.Patch("/v1/products/{id}/phases/bulk_update", phaseBulkUpdate(phases.BulkUpdate, productPhasesBodyOf))
	r.Get("/v1/products/{id}/phases/{phase}", getOf("phase", phases.Get))
	r.Patch("/v1/products/{id}/phases/{phase}", updateOf("phase", phases.Update))
	r.Delete("/v1/products/{id}/phases/{phase}", getOf("phase", phases.Delete))
}

type productHandlers struct{ svc *catalog.Products }

// search answers {meta, products} (spec doc 2 §4.1), the products under
// "data" too (respondPageAs).
func (h productHandlers) search(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := filter[catalog.ProductFilter](q)
	page, err := readList(r, q, f, h.svc.List)
	respondPageAs(w, r, "products", page, err)
}

// phasesBody is the {meta {product_id[, updated_count]}, phases} body,
// the phases under "data" too and the meta with the members of every
// list's meta (one page holds all the phases), as the SDKs read them.
type phasesBody struct {
	Meta   phasesMeta             `json:"meta"`
	Phases []*models.ProductPhase `json:"phases"`
	Data   []*models.ProductPhase `json:"data"`
}

type phasesMeta struct {
	models.ListMeta
	ProductID    string `json:"product_id"`
	UpdatedCount *int   `json:"updated_count,omitempty"`
}

func productPhasesBodyOf(list models.ListMeta, productID string, updated *int, phases []*models.ProductPhase) phasesBody {
	return phasesBody{Meta: phasesMeta{ListMeta: list, ProductID: productID, UpdatedCount: updated},
		Phases: phases, Data: phases}
}
