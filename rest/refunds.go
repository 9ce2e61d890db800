package rest

import (
	"github.com/frame-oss/payments-server/resolvers/money"
)

// refundRoutes mounts /v1/refunds (spec doc 2 §4.10).
func refundRoutes(r routes, svc *money.Service) {
	r.Post("/v1/refunds", create(svc.Refunds.Create))
	r.Get("/v1/refunds", list(svc.Refunds.List))
	r.Get("/v1/refunds/{id}", get(svc.Refunds.Get))
}
