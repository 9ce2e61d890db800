package rest

import (
	"github.com/frame-oss/payments-server/resolvers/payments"
)

// clientConfigurationRoutes mounts the client configuration the real
// service's SDK reads (docs/sandbox.md, "Resources from the SDK").
func clientConfigurationRoutes(r routes, svc payments.ClientConfig) {
	r.Get("/v1/config/evervault", read(svc.Evervault))
	r.Get("/v1/config/sift", read(svc.Sift))
	r.Get("/v1/client/wallet/google_pay", read(svc.GooglePay))
}
