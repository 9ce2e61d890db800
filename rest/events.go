package rest

import (
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// eventRoutes mounts /v1/events (API-DECISIONS §5).
func eventRoutes(r routes, svc *webhooks.Service) {
	r.Get("/v1/events", list(svc.Events.List))
	r.Get("/v1/events/{id}", get(svc.Events.Get))
	r.Post("/v1/events/{id}/resend", update(svc.Events.Resend))
}
