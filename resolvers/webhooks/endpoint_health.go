package webhooks

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// recordHealth follows an endpoint's failures after each attempt: the
// first failure after a success starts its failing streak, a success ends
// it, and a failure DisableAfter or more after the streak began disables
// the endpoint, as the real services do with receivers that are gone, so
// their backlog stops costing attempts.
func (d *Delivery) recordHealth(ctx context.Context, tx *store.Tenant, ep *models.WebhookEndpoint, succeeded bool, now time.Time) error {
	switch {
	case succeeded && ep.FailingSince.IsZero():
		return nil
	case succeeded:
		ep.FailingSince = wire.Timestamp{}
	case ep.FailingSince.IsZero():
		ep.FailingSince = wire.At(now)
	case now.Sub(ep.FailingSince.Time) >= d.cfg.DisableAfter:
		return d.disable(ctx, tx, ep, now)
	default:
		return nil
	}
	_, err := tx.Update(ep).Column("failing_since").WherePK().Exec(ctx)
	return err
}

// disable turns the endpoint off and announces it with
// webhook_endpoint.disabled, in the attempt's transaction. The event is
// written after the change, so it is not queued to the endpoint itself;
// the endpoint's cursor then ends its pending deliveries without an
// attempt. The merchant enables it again with PATCH status=active.
func (d *Delivery) disable(ctx context.Context, tx *store.Tenant, ep *models.WebhookEndpoint, now time.Time) error {
	before, err := events.Render(ep)
	if err != nil {
		return err
	}
	ep.Status, ep.FailingSince, ep.Updated = models.WebhookEndpointDisabled, wire.Timestamp{}, wire.At(now)
	if _, err := tx.Update(ep).Column("status", "failing_since", "updated").WherePK().Exec(ctx); err != nil {
		return err
	}
	after, previous, err := events.RenderChange(before, ep)
	if err != nil {
		return err
	}
	d.logger.Warn("webhook endpoint disabled: every delivery failed", "merchant", ep.MerchantID,
		"endpoint", ep.ID, "for", d.cfg.DisableAfter.String())
	return events.Insert(ctx, tx, []*events.Event{events.New(now, EventWebhookEndpointDisabled, ep.ID, after, previous)})
}
