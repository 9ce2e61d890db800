package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// webhookEndpointRoutes mounts /v1/webhook_endpoints (API-DECISIONS §5) and
// the deliveries made to them.
func webhookEndpointRoutes(r chi.Router, svc *webhooks.Service) {
	h := webhookEndpointHandlers{svc}
	r.Post("/v1/webhook_endpoints", h.create)
	r.Get("/v1/webhook_endpoints", h.list)
	r.Get("/v1/webhook_endpoints/{id}", h.get)
	r.Patch("/v1/webhook_endpoints/{id}", h.update)
	r.Delete("/v1/webhook_endpoints/{id}", h.delete)
	r.Post("/v1/webhook_endpoints/{id}/rotate_secret", h.rotate)
	r.Get("/v1/webhook_endpoints/{id}/deliveries", h.deliveries)
	r.Get("/v1/webhook_deliveries/{id}", h.delivery)
}

type webhookEndpointHandlers struct{ svc *webhooks.Service }

func (h webhookEndpointHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateWebhookEndpointInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	e, err := h.svc.CreateWebhookEndpoint(r.Context(), &in)
	respond(w, r, http.StatusCreated, e, err)
}

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

func (h webhookEndpointHandlers) get(w http.ResponseWriter, r *http.Request) {
	e, err := h.svc.GetWebhookEndpoint(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, e, err)
}

func (h webhookEndpointHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateWebhookEndpointInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	e, err := h.svc.UpdateWebhookEndpoint(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, e, err)
}

func (h webhookEndpointHandlers) delete(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.DeleteWebhookEndpoint(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, d, err)
}

func (h webhookEndpointHandlers) rotate(w http.ResponseWriter, r *http.Request) {
	var in models.RotateWebhookSecretInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	e, err := h.svc.RotateWebhookSecret(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, e, err)
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

func (h webhookEndpointHandlers) delivery(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.GetDelivery(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, d, err)
}
