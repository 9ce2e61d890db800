package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// Webhook endpoints and deliveries are nodes, read through loaders.
var (
	webhookEndpointLoader = nodeLoader("webhook_endpoint", func(r *Resolver) batch[*models.WebhookEndpoint] { return r.Svc.Webhooks.Endpoints.ByIDs })
	webhookDeliveryLoader = nodeLoader("webhook_delivery", func(r *Resolver) batch[*models.WebhookDelivery] { return r.Svc.Webhooks.Deliveries.ByIDs })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(webhookEndpointLoader, "endpoint", func(d *models.WebhookDelivery) string { return d.EndpointID.String() })
	_ = edge(eventLoader, "event", func(d *models.WebhookDelivery) string { return d.EventID.String() })
)

// deliveryEndpoint is a delivery's endpoint, or null once it is deleted.
func deliveryEndpoint(ctx context.Context, d *models.WebhookDelivery) (*models.WebhookEndpoint, error) {
	ep, err := load(ctx, webhookEndpointLoader, d.EndpointID.String())
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
		return nil, nil
	}
	return ep, err
}

func webhookEndpoints(ctx context.Context, r *Resolver, first *int, after *string) (*model.WebhookEndpointConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Webhooks.Endpoints.List, op.NoFilter{},
		first, after, webhookEndpointLoader, func(c string, e *models.WebhookEndpoint) *model.WebhookEndpointEdge {
			return &model.WebhookEndpointEdge{Cursor: c, Node: e}
		})
	return &model.WebhookEndpointConnection{Edges: edges, PageInfo: info}, err
}

func webhookDeliveries(ctx context.Context, r *Resolver, f webhooks.DeliveryFilter, first *int, after *string) (*model.WebhookDeliveryConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Webhooks.Deliveries.List, f,
		first, after, webhookDeliveryLoader, func(c string, d *models.WebhookDelivery) *model.WebhookDeliveryEdge {
			return &model.WebhookDeliveryEdge{Cursor: c, Node: d}
		})
	return &model.WebhookDeliveryConnection{Edges: edges, PageInfo: info}, err
}
