package merchant

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// Viewer answers who the caller is: its merchant, and whether it acts in
// the sandbox. The credential was verified with its merchant (a cached
// credential needs no statement), so this reads nothing more.
func (s *Service) Viewer(ctx context.Context) (*models.Viewer, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return &models.Viewer{MerchantID: p.Merchant.ID, MerchantName: p.Merchant.Name,
		DevMode: !p.Scope.Livemode, APIVersion: models.APIVersion}, nil
}
