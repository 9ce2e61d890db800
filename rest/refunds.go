package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// refundRoutes mounts /v1/refunds (spec doc 2 §4.10).
func refundRoutes(r chi.Router, svc *money.Service) {
	h := refundHandlers{svc}
	r.Post("/v1/refunds", h.create)
	r.Get("/v1/refunds", h.list)
	r.Get("/v1/refunds/{id}", h.get)
}

type refundHandlers struct{ svc *money.Service }

func (h refundHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateRefundInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	rf, err := h.svc.CreateRefund(r.Context(), &in)
	respond(w, r, http.StatusCreated, rf, err)
}

func (h refundHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := money.RefundFilter{Transfer: q.str("transfer"), ChargeIntent: q.str("charge_intent"), Charge: q.str("charge")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListRefunds(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h refundHandlers) get(w http.ResponseWriter, r *http.Request) {
	rf, err := h.svc.GetRefund(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, rf, err)
}
