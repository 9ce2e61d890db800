package webhooks

import (
	"context"

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

// attemptsOfDelivery are a delivery's attempts, oldest first, read in the
// delivery's own statement (op.Embed).
var attemptsOfDelivery = &op.Embed[models.WebhookDelivery, models.WebhookAttempt]{
	Column: "delivery_id", As: "attempts_json", Order: "at.attempt",
	Into: func(d *models.WebhookDelivery) *[]*models.WebhookAttempt { return &d.Attempts }}

var deliveryTable = &op.Table[models.WebhookDelivery]{Resource: "webhook_delivery", Allow: managers,
	Embedded: []op.Embedding[models.WebhookDelivery]{attemptsOfDelivery}}

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

// List lists the deliveries to one endpoint or listen session, newest
// first, each with its attempts: one statement, after the check that the
// destination is the caller's (404 otherwise).
func (ds *Deliveries) List(ctx context.Context, f DeliveryFilter, lp op.ListParams) (op.Page[*models.WebhookDelivery], error) {
	ep, err := destinationTable.Get(ctx, ds.svc.Kit, f.EndpointID)
	if err != nil {
		return op.Page[*models.WebhookDelivery]{}, err
	}
	f.endpoint = ep.ID
	return ds.Reader.List(ctx, f, lp)
}
