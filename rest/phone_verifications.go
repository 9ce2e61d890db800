package rest

import (
	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// phoneVerificationRoutes mounts /v1/accounts/{id}/phone_verifications
// (spec doc 1 §4.6).
func phoneVerificationRoutes(r chi.Router, svc *accounts.PhoneVerifications) {
	r.Get("/v1/accounts/{id}/phone_verifications", listIn(svc.List))
	r.Post("/v1/accounts/{id}/phone_verifications", createIn(svc.Create))
	r.Get("/v1/accounts/{id}/phone_verifications/{pv}", getOf("pv", svc.Get))
	r.Post("/v1/accounts/{id}/phone_verifications/{pv}/confirm", updateOf("pv", svc.Confirm))
}
