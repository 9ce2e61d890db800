package rest

import (
	"github.com/frame-oss/payments-server/resolvers/money"
)

// threeDSIntentRoutes mounts /v1/3ds/intents (spec doc 2 §4.10) and the
// sandbox's stand-in for the cardholder answering a challenge.
func threeDSIntentRoutes(r routes, svc *money.ThreeDSIntents) {
	h := threeDSIntentHandlers{svc}
	r.Post("/v1/3ds/intents", create(h.svc.Create))
	r.Get("/v1/3ds/intents/{id}", get(h.svc.Get))
	r.Post("/v1/3ds/intents/{id}/resend", action(h.svc.Resend))
	r.Post("/v1/test_helpers/3ds/intents/{id}/complete", action(h.svc.Complete))
}

type threeDSIntentHandlers struct{ svc *money.ThreeDSIntents }
