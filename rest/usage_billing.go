package rest

import (
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// usageRoutes mounts usage billing's meters and metering events (spec doc
// 2 §4.6). /v1/billing/metering is the real service SDKs' path, where a
// meter is configured and usage recorded (usage.Metering).
func usageRoutes(r routes, svc *billing.Service) {
	ms, es, metering := svc.Meters, svc.MeteringEvents, svc.Metering
	r.Post("/v1/billing/metering", create(metering.Create))
	r.Get("/v1/billing/metering", list(ms.List))
	r.Get("/v1/billing/metering/{id}", get(metering.Get))
	r.Patch("/v1/billing/metering/{id}", update(metering.Update))
	r.Post("/v1/billing/metering_events", create(es.Create))
	r.Get("/v1/billing/metering_events", list(es.List))
	r.Get("/v1/billing/metering_events/{id}", get(es.Get))
	r.Patch("/v1/billing/metering_events/{id}", update(es.Update))
}
