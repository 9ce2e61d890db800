package rest

import (
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// usageRoutes mounts usage billing's meters and metering events (spec doc
// 2 §4.6; the meters' paths are the real service SDK's).
func usageRoutes(r routes, svc *billing.Service) {
	ms, es := svc.Meters, svc.MeteringEvents
	r.Post("/v1/billing/metering", create(ms.Create))
	r.Get("/v1/billing/metering", list(ms.List))
	r.Get("/v1/billing/metering/{id}", get(ms.Get))
	r.Patch("/v1/billing/metering/{id}", update(ms.Update))
	r.Post("/v1/billing/metering_events", create(es.Create))
	r.Get("/v1/billing/metering_events", list(es.List))
	r.Get("/v1/billing/metering_events/{id}", get(es.Get))
	r.Patch("/v1/billing/metering_events/{id}", update(es.Update))
}
