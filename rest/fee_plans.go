package rest

import (
	"github.com/frame-oss/payments-server/resolvers/money"
)

// feePlanRoutes mounts /v1/transfer_fee_plans and
// /v1/transfer_billing_agreements (spec doc 2 §4.8, API-DECISIONS §4).
func feePlanRoutes(r routes, svc *money.Service) {
	r.Post("/v1/transfer_fee_plans", create(svc.FeePlans.Create))
	r.Get("/v1/transfer_fee_plans", list(svc.FeePlans.List))
	r.Get("/v1/transfer_fee_plans/{id}", get(svc.FeePlans.Get))
	r.Post("/v1/transfer_billing_agreements", create(svc.Agreements.Create))
	r.Get("/v1/transfer_billing_agreements", list(svc.Agreements.List))
	r.Get("/v1/transfer_billing_agreements/{id}", get(svc.Agreements.Get))
	r.Patch("/v1/transfer_billing_agreements/{id}", update(svc.Agreements.Update))
}
