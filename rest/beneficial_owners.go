package rest

import (
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// beneficialOwnerRoutes mounts /v1/accounts/{id}/beneficial_owners (spec
// doc 1 §4.2).
func beneficialOwnerRoutes(r routes, svc *accounts.Owners) {
	r.Get("/v1/accounts/{id}/beneficial_owners", dataOf(svc.List))
	r.Post("/v1/accounts/{id}/beneficial_owners", createIn(svc.Create))
	r.Post("/v1/accounts/{id}/beneficial_owners/confirm", action(svc.Confirm))
	r.Get("/v1/accounts/{id}/beneficial_owners/{owner}", getOf("owner", svc.Get))
	r.Patch("/v1/accounts/{id}/beneficial_owners/{owner}", updateOf("owner", svc.Update))
	r.Delete("/v1/accounts/{id}/beneficial_owners/{owner}", deleteOf("owner", svc.Delete))
	r.Post("/v1/accounts/{id}/beneficial_owners/{owner}/resend_invite", getOf("owner", svc.ResendInvite))
}
