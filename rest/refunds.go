package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// refundRoutes mounts /v1/refunds (spec doc 2 §4.10).
func refundRoutes(r chi.Router, svc *money.Service) {
	h := refundHandlers{svc.Refunds}
	r.Post("/v1/refunds", h.create)
	r.Get("/v1/refunds", list(svc.Refunds.List))
	r.Get("/v1/refunds/{id}", h.get)
}

type refundHandlers struct{ svc *money.Refunds }

func (h refundHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateRefundInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	rf, err := h.svc.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, rf, err)
}

func (h refundHandlers) get(w http.ResponseWriter, r *http.Request) {
	rf, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, rf, err)
}
