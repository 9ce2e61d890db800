package rest

import (
	"github.com/frame-oss/payments-server/resolvers/money"
)

// sdkSessionRoutes mounts the real service's SDK's sessions beyond the
// spec: /v1/charge_sessions, /v1/sonar_sessions and
// /v1/payment_link_sessions (docs/sandbox.md, "Resources from the SDK").
func sdkSessionRoutes(r routes, svc *money.Service) {
	r.Post("/v1/charge_sessions", create(svc.ChargeSessions.Create))
	r.Get("/v1/charge_sessions", list(svc.ChargeSessions.List))
	r.Get("/v1/charge_sessions/{id}", get(svc.ChargeSessions.Get))
	r.Patch("/v1/charge_sessions/{id}", update(svc.ChargeSessions.Update))
	r.Post("/v1/sonar_sessions", create(svc.SonarSessions.Create))
	r.Get("/v1/sonar_sessions", list(svc.SonarSessions.List))
	r.Get("/v1/sonar_sessions/{id}", get(svc.SonarSessions.Get))
	r.Patch("/v1/sonar_sessions/{id}", update(svc.SonarSessions.Update))
	r.Post("/v1/payment_link_sessions", create(svc.PaymentLinkSessions.Create))
	r.Get("/v1/payment_link_sessions", list(svc.PaymentLinkSessions.List))
	r.Get("/v1/payment_link_sessions/{id}", get(svc.PaymentLinkSessions.Get))
}
