package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// eventRoutes mounts /v1/events (API-DECISIONS §5).
func eventRoutes(r chi.Router, svc *webhooks.Service) {
	h := eventHandlers{svc}
	r.Get("/v1/events", h.list)
	r.Get("/v1/events/{id}", h.get)
	r.Post("/v1/events/{id}/resend", h.resend)
}

type eventHandlers struct{ svc *webhooks.Service }

func (h eventHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := webhooks.EventFilter{Type: q.str("type")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListEvents(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h eventHandlers) get(w http.ResponseWriter, r *http.Request) {
	e, err := h.svc.GetEvent(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, e, err)
}

func (h eventHandlers) resend(w http.ResponseWriter, r *http.Request) {
	var in models.ResendEventInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	e, err := h.svc.ResendEvent(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, e, err)
}
