package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/money"
)

// chargeRoutes mounts GET /v1/charges/{id} and its trace (spec doc 2
// §4.10).
func chargeRoutes(r chi.Router, svc *money.Charges) {
	h := chargeHandlers{svc}
	r.Get("/v1/charges/{id}", h.get)
	r.Get("/v1/charges/{id}/trace", h.trace)
}

type chargeHandlers struct{ svc *money.Charges }

func (h chargeHandlers) get(w http.ResponseWriter, r *http.Request) {
	ch, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, ch, err)
}

func (h chargeHandlers) trace(w http.ResponseWriter, r *http.Request) {
	tr, err := h.svc.Trace(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, tr, err)
}
