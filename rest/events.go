package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// eventRoutes mounts /v1/events (API-DECISIONS §5).
func eventRoutes(r chi.Router, svc *webhooks.Service) {
	h := eventHandlers{svc}
	r.Get("/v1/events", h.list)
	r.Get("/v1/events/{id}", get(h.svc.GetEvent))
	r.Post("/v1/events/{id}/resend", update(h.svc.ResendEvent))
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
