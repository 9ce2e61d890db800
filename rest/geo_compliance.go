package rest

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// geoComplianceRoutes mounts the account's geo compliance and
// /v1/geofences (spec doc 1 §4.8).
func geoComplianceRoutes(r routes, svc *accounts.Geo) {
	r.Get("/v1/accounts/{id}/geo_compliance", get(svc.Evaluate))
	r.Get("/v1/geofences", list(func(ctx context.Context, _ op.NoFilter, lp op.ListParams) (op.Page[*models.Geofence], error) {
		return svc.Geofences(ctx, lp)
	}))
}
