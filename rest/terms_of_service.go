package rest

import (
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// termsOfServiceRoutes mounts /v1/terms_of_service, as the real service's
// clients call it: POST mints a token, PATCH accepts it.
func termsOfServiceRoutes(r routes, svc *accounts.Terms) {
	r.Post("/v1/terms_of_service", create(svc.CreateToken))
	r.Patch("/v1/terms_of_service", call(svc.Accept))
}
