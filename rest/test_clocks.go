package rest

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing"
)

// testClockRoutes mounts the sandbox test clocks (API-DECISIONS §7, §9).
func testClockRoutes(r routes, svc *billing.Service) {
	tc := svc.TestClocks
	r.Post("/v1/test_helpers/test_clocks", create(tc.Create))
	r.Get("/v1/test_helpers/test_clocks", list(tc.List))
	r.Get("/v1/test_helpers/test_clocks/{id}", get(tc.Get))
	r.Delete("/v1/test_helpers/test_clocks/{id}", action(tc.Delete))
	r.Post("/v1/test_helpers/test_clocks/{id}/advance", updateOrAccept(tc.Advance, (*models.TestClock).StillAdvancing))
}
