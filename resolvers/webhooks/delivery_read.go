package webhooks

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Deliveries is the webhook delivery family of the area: reads from the
// kit, each delivery with its attempts in its own statement. The delivery
// job writes them (delivery_job.go).
type Deliveries struct {
	op.Reader[models.WebhookDelivery, DeliveryFilter]
	svc *Service
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

var deliveryTable = &op.Table[models.WebhookDelivery]{Resource: "webhook_delivery", Allow: managers,
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr(attemptsColumnSQL) },
	Derive: func(d *models.WebhookDelivery, _ time.Time) {
		d.Attempts = []*models.WebhookAttempt(d.LoadedAttempts)
		if d.Attempts == nil {
			d.Attempts = []*models.WebhookAttempt{}
		}
		d.LoadedAttempts = nil
	}}

func newDeliveries(s *Service) *Deliveries {
	return &Deliveries{Reader: op.Read[models.WebhookDelivery, DeliveryFilter](s.Kit, deliveryTable), svc: s}
}

// DeliveryFilter is what delivery lists filter by: the endpoint whose
// deliveries are listed (from the path, or the GraphQL argument), then the
// event and the status.
type DeliveryFilter struct {
	EndpointID string                        `filter:"-"`
	EventID    *string                       `query:"event_id" filter:"event_id,id"`
	Status     *models.WebhookDeliveryStatus `query:"status" filter:"status,enum"`

	endpoint uuid.UUID // EndpointID, once known to be the caller's
}

// Apply keeps the endpoint's deliveries.
func (f DeliveryFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Where("?TableAlias.endpoint_id = ?", f.endpoint)
}

// List lists the deliveries to one endpoint, newest first, each with its
// attempts: one statement, after the check that the endpoint is the
// caller's (404 otherwise).
func (ds *Deliveries) List(ctx context.Context, f DeliveryFilter, lp op.ListParams) (op.Page[*models.WebhookDelivery], error) {
	ep, err := ds.svc.Endpoints.Get(ctx, f.EndpointID)
	if err != nil {
		return op.Page[*models.WebhookDelivery]{}, err
	}
	f.endpoint = ep.ID
	return ds.Reader.List(ctx, f, lp)
}
