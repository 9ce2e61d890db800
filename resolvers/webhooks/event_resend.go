package webhooks

import (
	"context"
	"slices"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Resend delivers an event again: a new delivery (with its own id and
// attempts) to every active endpoint subscribed to the event's type, and
// to every live listen session whose filter takes it, or to the one
// endpoint asked for, whatever its subscriptions. It answers the event
// with the resend's status (models.ResentEvent); the deliveries are listed
// under each endpoint. While a listen session holds the merchant's
// endpoints back, their new deliveries are recorded as skipped, as the
// fan-out records an event's.
func (es *Events) Resend(ctx context.Context, id string, in *models.ResendEventInput) (*models.ResentEvent, error) {
	s := es.svc
	if in == nil {
		in = &models.ResendEventInput{}
	}
	spec := op.Spec{Name: "event.resend", Allow: managers, Params: struct {
		ID string `json:"id"`
		*models.ResendEventInput
	}{id, in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.ResentEvent, error) {
		ev, err := findEvent(ctx, w.Tx, id)
		if err != nil {
			return nil, err
		}
		var eps []*models.WebhookEndpoint
		q := w.Tx.Select(&eps).Where("w.deleted IS NULL").Where("w.status = 'active'")
		if in.WebhookEndpointID != nil {
			uid, ok := ids.Parse(*in.WebhookEndpointID)
			if !ok {
				return nil, noActiveEndpoint(*in.WebhookEndpointID)
			}
			q = q.Where("w.id = ? AND w.kind = ?", uid, models.WebhookEndpointURL)
		} else {
			q = q.Where("(? = ANY (w.event_codes) OR '*' = ANY (w.event_codes))", ev.Type)
		}
		if err := q.OrderExpr("w.id").Scan(ctx); err != nil {
			return nil, err
		}
		if in.WebhookEndpointID != nil && len(eps) == 0 {
			return nil, noActiveEndpoint(*in.WebhookEndpointID)
		}
		skips, err := endpointsHeldBack(ctx, w.Tx, eps)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		rows := make([]*models.WebhookDelivery, 0, len(eps))
		for _, ep := range eps {
			d := &models.WebhookDelivery{ID: ids.New(now), EndpointID: ep.ID, EventID: ev.ID,
				EventType: ev.Type, Status: models.WebhookDeliveryPending, Created: wire.At(now), Updated: wire.At(now)}
			switch {
			case ep.Kind == models.WebhookEndpointListenSession:
				d.Enqueued = true // its session sends it, not the dispatcher
			case skips:
				reason := heldBackReason
				d.Status, d.LastError, d.Enqueued = models.WebhookDeliverySkipped, &reason, true
			}
			rows = append(rows, d)
		}
		if len(rows) > 0 {
			if _, err := store.InsertModel(w.Tx, rows).Exec(ctx); err != nil {
				return nil, err
			}
		}
		return &models.ResentEvent{Event: ev, Status: models.ResendStatusOf(rows)}, nil
	})
}

// heldBackReason is the last_error of a skipped delivery (the fan-out
// writes the same, migrations/00030_listen_sessions.up.sql).
const heldBackReason = "held back: a listen session with skip_endpoints was live"

// endpointsHeldBack reports whether a live listen session holds the
// merchant's endpoints back, when eps has an endpoint it would concern;
// the fan-out asks the same (listen_skips).
func endpointsHeldBack(ctx context.Context, tx *store.Tenant, eps []*models.WebhookEndpoint) (bool, error) {
	if tx.Scope().Livemode || !slices.ContainsFunc(eps, func(ep *models.WebhookEndpoint) bool {
		return ep.Kind != models.WebhookEndpointListenSession
	}) {
		return false, nil
	}
	return tx.Select((*models.ListenSession)(nil)).Where("ls.ended IS NULL AND ls.skip_endpoints").Exists(ctx)
}

// noActiveEndpoint answers a resend to an endpoint that is unknown,
// another tenant's, deleted or disabled.
func noActiveEndpoint(id string) error {
	e := apierr.NotFound("active webhook endpoint", id)
	e.Param = "webhook_endpoint_id"
	return e
}

func findEvent(ctx context.Context, tx *store.Tenant, id string) (*events.Event, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("event", id)
	}
	ev := new(events.Event)
	err := tx.Select(ev).Where("e.id = ?", uid).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, apierr.NotFound("event", id)
	}
	return ev, err
}
