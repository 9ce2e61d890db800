package webhooks

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Endpoints are the merchant's: only its secret key manages them.
var managers = []auth.Kind{auth.SecretKey}

// ListWebhookEndpoints is the one list of endpoints, newest first, deleted
// ones left out: the REST list and the GraphQL connection.
func (s *Service) ListWebhookEndpoints(ctx context.Context, lp op.ListParams) (op.Page[*models.WebhookEndpoint], error) {
	p, err := auth.Require(ctx, managers...)
	if err != nil {
		return op.Page[*models.WebhookEndpoint]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.WebhookEndpoint)(nil)).Where("w.deleted IS NULL")
	return op.List(ctx, q, "w", lp, func(e *models.WebhookEndpoint) op.Position {
		return op.Position{Created: e.Created.Time, ID: e.ID}
	})
}

// GetWebhookEndpoint returns one endpoint (without its secret).
func (s *Service) GetWebhookEndpoint(ctx context.Context, id string) (*models.WebhookEndpoint, error) {
	eps, errs := s.WebhookEndpointsByIDs(ctx, []string{id})
	return eps[0], errs[0]
}

// WebhookEndpointsByIDs reads many endpoints in one statement.
func (s *Service) WebhookEndpointsByIDs(ctx context.Context, idList []string) ([]*models.WebhookEndpoint, []error) {
	p, err := auth.Require(ctx, managers...)
	return op.ByIDs(idList, "webhook_endpoint", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.WebhookEndpoint, error) {
		var rows []*models.WebhookEndpoint
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("w.id IN (?)", bun.In(want)).
			Where("w.deleted IS NULL").Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.WebhookEndpoint, len(rows))
		for _, e := range rows {
			found[e.ID] = e
		}
		return found, nil
	})
}

// lockEndpoint reads an endpoint for a write, its row locked: concurrent
// updates and rotations of one endpoint run one after the other.
func lockEndpoint(ctx context.Context, tx *store.Tenant, id string) (*models.WebhookEndpoint, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("webhook_endpoint", id)
	}
	e := new(models.WebhookEndpoint)
	err := tx.Select(e).Where("w.id = ?", uid).Where("w.deleted IS NULL").For("UPDATE").Scan(ctx)
	if store.IsNoRows(err) {
		return nil, apierr.NotFound("webhook_endpoint", id)
	}
	return e, err
}
