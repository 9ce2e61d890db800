package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// customerRoutes mounts /v1/customers (spec doc 2 §4.2, API-DECISIONS §4).
func customerRoutes(r routes, svc *catalog.Service) {
	h := customerHandlers{svc.Customers}
	r.Post("/v1/customers", create(h.svc.Create))
	r.Get("/v1/customers", handled(h.list, wireShape{query: params(true, "email"), responses: pageFrom("data", h.svc.List)}))
	r.Get("/v1/customers/search", list(svc.Customers.List))
	r.Get("/v1/customers/{id}", get(h.svc.Get))
	r.Patch("/v1/customers/{id}", update(h.svc.Update))
	r.Delete("/v1/customers/{id}", action(h.svc.Delete))
	r.Post("/v1/customers/{id}/block", action(h.svc.Block))
	r.Post("/v1/customers/{id}/unblock", action(h.svc.Unblock))
}

type customerHandlers struct{ svc *catalog.Customers }

// list filters by e-mail only; the other parameters of the customer
// filter are the search's.
func (h customerHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := catalog.CustomerFilter{Email: q.str("email")}
	page, err := readList(r, q, f, h.svc.List)
	respondPage(w, r, page, err)
}
