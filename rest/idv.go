package rest

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// idvRoutes mounts /v1/idv (spec doc 1 §4.4): the document check an
// onboarding secret runs for its account.
func idvRoutes(r routes, svc *accounts.IDV) {
	r.Post("/v1/idv/session", createOrFind(func(ctx context.Context, _ *struct{}) (*models.IDVSession, error) {
		return svc.StartSession(ctx)
	}, func(s *models.IDVSession) bool { return s.Reused }))
	r.Post("/v1/idv/complete", call(svc.Complete))
}
