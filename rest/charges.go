package rest

import (
	"github.com/frame-oss/payments-server/resolvers/money"
)

// chargeRoutes mounts GET /v1/charges/{id} and its trace (spec doc 2
// §4.10).
func chargeRoutes(r routes, svc *money.Charges) {
	h := chargeHandlers{svc}
	r.Get("/v1/charges/{id}", get(h.svc.Get))
	r.Get("/v1/charges/{id}/trace", get(h.svc.Trace))
}

type chargeHandlers struct{ svc *money.Charges }
