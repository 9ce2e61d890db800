package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// identityVerificationRoutes mounts /v1/accounts/{id}/identity_verifications
// (spec doc 1 §4.5).
func identityVerificationRoutes(r routes, svc *accounts.IdentityRuns) {
	r.Get("/v1/accounts/{id}/identity_verifications", listIn(svc.List))
	// A run takes an empty body: it checks the account's data as stored.
	r.Post("/v1/accounts/{id}/identity_verifications", bodiless(http.StatusCreated, svc.Create))
	r.Get("/v1/accounts/{id}/identity_verifications/{run}", getOf("run", svc.Get))
}
