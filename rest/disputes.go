package rest

import (
	"github.com/frame-oss/payments-server/resolvers/money"
)

// disputeRoutes mounts /v1/disputes (spec doc 2 §4.10, API-DECISIONS §4)
// with the SDK's document upload, and the sandbox helper that opens a
// dispute on a charge.
func disputeRoutes(r routes, svc *money.Service) {
	r.Get("/v1/disputes", list(svc.Disputes.List))
	r.Get("/v1/disputes/{id}", get(svc.Disputes.Get))
	r.Patch("/v1/disputes/{id}", update(svc.Disputes.Update))
	r.Post("/v1/disputes/{id}/documents", createIn(svc.Disputes.AddDocument))
	r.Post("/v1/test_helpers/charges/{id}/dispute", createIn(svc.Disputes.Open))
}
