package webhooks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// DeliveryFilter is what delivery lists filter by. EndpointID or EventID
// names whose deliveries are listed.
type DeliveryFilter struct {
	EndpointID string
	EventID    *string
	Status     *string
}

// attemptsColumnSQL is a delivery's attempts, oldest first, as one JSON
// array in the delivery's own statement (timestamps as Unix seconds, as the
// API renders them).
const attemptsColumnSQL = `(SELECT coalesce(json_agg(json_build_object(
    'id', at.id, 'livemode', at.livemode, 'webhook_delivery_id', at.delivery_id, 'attempt', at.attempt,
    'url', at.url, 'status_code', at.status_code, 'error', at.error, 'latency_ms', at.latency_ms,
    'response_excerpt', at.response_excerpt, 'created', extract(epoch FROM at.created)::bigint)
    ORDER BY at.attempt), '[]')
  FROM webhook_delivery_attempts AS at
  WHERE at.merchant_id = d.merchant_id AND at.delivery_id = d.id) AS attempts_json`

func withAttempts(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr("?TableColumns").ColumnExpr(attemptsColumnSQL)
}

// hydrateAttempts decodes the attempts column of each delivery.
func hydrateAttempts(rows []*models.WebhookDelivery) error {
	for _, d := range rows {
		d.Attempts = []*models.WebhookAttempt{}
		if len(d.LoadedAttempts) == 0 {
			continue
		}
		if err := json.Unmarshal(d.LoadedAttempts, &d.Attempts); err != nil {
			return fmt.Errorf("webhooks: attempts of %s: %w", d.ID, err)
		}
		d.LoadedAttempts = nil
	}
	return nil
}

// ListDeliveries lists the deliveries to one endpoint (or of one event),
// newest first, each with its attempts: one statement, after the check
// that the endpoint is the caller's.
func (s *Service) ListDeliveries(ctx context.Context, f DeliveryFilter, lp op.ListParams) (op.Page[*models.WebhookDelivery], error) {
	var none op.Page[*models.WebhookDelivery]
	p, err := auth.Require(ctx, managers...)
	if err != nil {
		return none, err
	}
	t := s.DB.Tenant(p.Scope)
	q := withAttempts(t.Select((*models.WebhookDelivery)(nil)))
	if f.EndpointID != "" {
		if _, err := s.GetWebhookEndpoint(ctx, f.EndpointID); err != nil {
			return none, err
		}
		q = q.Where("d.endpoint_id = ?", uuid.MustParse(f.EndpointID))
	}
	if f.EventID != nil {
		uid, ok := ids.Parse(*f.EventID)
		if !ok {
			return none, apierr.FieldError("event_id", "is not a valid id")
		}
		q = q.Where("d.event_id = ?", uid)
	}
	if f.Status != nil {
		switch models.WebhookDeliveryStatus(*f.Status) {
		case models.WebhookDeliveryPending, models.WebhookDeliverySucceeded, models.WebhookDeliveryFailed:
			q = q.Where("d.status = ?", *f.Status)
		default:
			return none, apierr.FieldError("status", "must be one of pending, succeeded, failed")
		}
	}
	page, err := op.List(ctx, q, "d", lp, func(d *models.WebhookDelivery) op.Position {
		return op.Position{Created: d.Created.Time, ID: d.ID}
	})
	if err != nil {
		return none, err
	}
	return page, hydrateAttempts(page.Items)
}

// GetDelivery returns one delivery with its attempts.
func (s *Service) GetDelivery(ctx context.Context, id string) (*models.WebhookDelivery, error) {
	ds, errs := s.DeliveriesByIDs(ctx, []string{id})
	return ds[0], errs[0]
}

// DeliveriesByIDs reads many deliveries, with their attempts, in one
// statement.
func (s *Service) DeliveriesByIDs(ctx context.Context, idList []string) ([]*models.WebhookDelivery, []error) {
	p, err := auth.Require(ctx, managers...)
	return op.ByIDs(idList, "webhook_delivery", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.WebhookDelivery, error) {
		var rows []*models.WebhookDelivery
		if err := withAttempts(s.DB.Tenant(p.Scope).Select(&rows)).Where("d.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		if err := hydrateAttempts(rows); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.WebhookDelivery, len(rows))
		for _, d := range rows {
			found[d.ID] = d
		}
		return found, nil
	})
}
