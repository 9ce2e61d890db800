package webhooks

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfEndpoints reads one page of the deliveries to each of many
// endpoints in one statement (WebhookEndpoint.deliveries), each with its
// attempts, filtered as the delivery list is (event, status). The
// endpoints are the caller's already (the parent was read through the
// same scope), so the page's column names the endpoint, not the filter.
func (ds *Deliveries) PagesOfEndpoints(ctx context.Context, endpointIDs []string, f DeliveryFilter,
	first *int, after *string) ([]op.Page[*models.WebhookDelivery], []error) {
	return deliveryTable.PagesOf(ctx, ds.svc.Kit, "endpoint_id", "webhook_endpoint", endpointIDs, deliveryPageFilter{
		EventID: f.EventID, Status: f.Status}, first, after)
}

// deliveryPageFilter is DeliveryFilter's event and status, declared alike,
// without the one endpoint DeliveryFilter keeps (Apply): a page of
// endpoints names each by the page's own column.
type deliveryPageFilter struct {
	EventID *string                       `query:"event_id" filter:"event_id,id"`
	Status  *models.WebhookDeliveryStatus `query:"status" filter:"status,enum"`
}
