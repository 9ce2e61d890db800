package rest

import (
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// subscriptionRoutes mounts /v1/subscriptions and their change logs (spec
// doc 2 §4.4, API-DECISIONS §4). Their lists answer under the spec's
// names: {meta, subscriptions} and {meta, subscription_change_logs}.
func subscriptionRoutes(r routes, svc *billing.Service) {
	ss, cl := svc.Subscriptions, svc.ChangeLogs
	r.Post("/v1/subscriptions", create(ss.Create))
	r.Get("/v1/subscriptions", listAs("subscriptions", ss.ListAll))
	r.Get("/v1/subscriptions/search", listAs("subscriptions", ss.List))
	r.Get("/v1/subscriptions/{id}", get(ss.Get))
	r.Patch("/v1/subscriptions/{id}", update(ss.Update))
	r.Post("/v1/subscriptions/{id}/cancel", action(ss.Cancel))
	r.Post("/v1/subscriptions/{id}/pause", update(ss.Pause))
	r.Post("/v1/subscriptions/{id}/resume", action(ss.Resume))
	r.Delete("/v1/subscriptions/{id}/scheduled_change", action(ss.DeleteScheduledChange))
	r.Get("/v1/subscriptions/{id}/change_logs", listInAs("subscription_change_logs", cl.ListOf))
	r.Get("/v1/subscription_change_logs", listAs("subscription_change_logs", cl.List))
}
