package rest

import (
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// phoneVerificationRoutes mounts /v1/accounts/{id}/phone_verifications
// (spec doc 1 §4.6).
func phoneVerificationRoutes(r routes, svc *accounts.PhoneVerifications) {
	r.Get("/v1/accounts/{id}/phone_verifications", listIn(svc.List))
	r.Post("/v1/accounts/{id}/phone_verifications", createIn(svc.Create))
	r.Get("/v1/accounts/{id}/phone_verifications/{pv}", getOf("pv", svc.Get))
	r.Post("/v1/accounts/{id}/phone_verifications/{pv}/confirm", updateOf("pv", svc.Confirm))
}
