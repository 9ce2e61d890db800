package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// WebhookEndpoint.deliveries is a page edge: the deliveries of every
// endpoint of a level in one statement per distinct set of arguments,
// filtered as webhookDeliveries is.
var (
	deliveryPagesOfEndpointLoader = loader("deliveryPagesOfEndpoint", func(r *Resolver) batch[*op.Page[*models.WebhookDelivery]] {
		return pagesOf(func(ctx context.Context, endpoints []string, a endpointDeliveriesArgs) ([]op.Page[*models.WebhookDelivery], []error) {
			return r.Svc.Webhooks.Deliveries.PagesOfEndpoints(ctx, endpoints, a.filter(), a.First, a.After)
		})
	})
	_ = pageEdge(deliveryPagesOfEndpointLoader, "deliveries", func(e *models.WebhookEndpoint) string { return e.ID.String() })
)

// endpointDeliveriesArgs are the arguments of WebhookEndpoint.deliveries
// as the query gives them (the status as the schema's enum spells it).
type endpointDeliveriesArgs struct {
	First   *int    `json:"first"`
	After   *string `json:"after"`
	EventID *string `json:"eventId"`
	Status  *string `json:"status"`
}

// filter is the delivery list's filter of the arguments (its statuses are
// the enum's names in lower case).
func (a endpointDeliveriesArgs) filter() webhooks.DeliveryFilter {
	return webhooks.DeliveryFilter{EventID: a.EventID, Status: enumArg[models.WebhookDeliveryStatus](a.Status)}
}
