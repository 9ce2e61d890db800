package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// webhookEndpointRoutes mounts /v1/webhook_endpoints (API-DECISIONS §5) and
// the deliveries made to them.
func webhookEndpointRoutes(r chi.Router, svc *webhooks.Service) {
	h := webhookEndpointHandlers{svc}
	r.Post("/v1/webhook_endpoints", create(h.svc.CreateWebhookEndpoint))
	r.Get("/v1/webhook_endpoints", h.list)
	r.Get("/v1/webhook_endpoints/{id}", get(h.svc.GetWebhookEndpoint))
	r.Patch("/v1/webhook_endpoints/{id}", update(h.svc.UpdateWebhookEndpoint))
	r.Delete("/v1/webhook_endpoints/{id}", action(h.svc.DeleteWebhookEndpoint))
	r.Post("/v1/webhook_endpoints/{id}/rotate_secret", update(h.svc.RotateWebhookSecret))
	r.Get("/v1/webhook_endpoints/{id}/deliveries", h.deliveries)
	r.Get("/v1/webhook_deliveries/{id}", get(h.svc.GetDelivery))
}

type webhookEndpointHandlers struct{ svc *webhooks.Service }

func (h webhookEndpointHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListWebhookEndpoints(r.Context(), op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h webhookEndpointHandlers) deliveries(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := webhooks.DeliveryFilter{EndpointID: chi.URLParam(r, "id"), Status: q.str("status"), EventID: q.str("event_id")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListDeliveries(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}
