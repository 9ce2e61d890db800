package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// webhookEndpointRoutes mounts /v1/webhook_endpoints (API-DECISIONS §5) and
// the deliveries made to them.
func webhookEndpointRoutes(r routes, svc *webhooks.Service) {
	eps := svc.Endpoints
	r.Post("/v1/webhook_endpoints", create(eps.Create))
	r.Get("/v1/webhook_endpoints", list(eps.List))
	r.Get("/v1/webhook_endpoints/{id}", get(eps.Get))
	r.Patch("/v1/webhook_endpoints/{id}", update(eps.Update))
	r.Delete("/v1/webhook_endpoints/{id}", action(eps.Delete))
	r.Post("/v1/webhook_endpoints/{id}/rotate_secret", update(eps.RotateSecret))
	r.Get("/v1/webhook_endpoints/{id}/deliveries", endpointDeliveries(svc.Deliveries))
	r.Get("/v1/webhook_deliveries/{id}", get(svc.Deliveries.Get))
}

// endpointDeliveries lists the deliveries to the endpoint of the path.
func endpointDeliveries(ds *webhooks.Deliveries) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		q := newQuery(r)
		f := filter[webhooks.DeliveryFilter](q)
		f.EndpointID = chi.URLParam(r, "id")
		page, err := readList(r, q, f, ds.List)
		respondPage(w, r, page, err)
	}, wireShape{query: filterParams[webhooks.DeliveryFilter](), responses: pageFrom("data", ds.List)})
}
