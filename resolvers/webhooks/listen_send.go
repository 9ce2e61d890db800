package webhooks

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
)

// listenPage is how many deliveries one read of a session takes.
const listenPage = 100

// deliveryUserAgent is the User-Agent of every delivery, POSTed or sent
// to a listen session.
const deliveryUserAgent = "payments-server-webhooks/1"

// replay sends every delivery of the session still waiting for an
// acknowledgement, oldest first, a page at a time.
func (s *ListenSession) replay(ctx context.Context, send func(context.Context, *models.ListenEvent) error) error {
	var after int64
	for {
		var page []*models.WebhookDelivery
		err := s.ls.svc.DB.Tenant(s.scope).Select(&page).ColumnExpr("?TableColumns, d.seq").
			Where("d.endpoint_id = ? AND d.status = ? AND d.seq > ?", s.ID, models.WebhookDeliveryPending, after).
			OrderExpr("d.seq").Limit(listenPage).Scan(ctx)
		if err != nil {
			return err
		}
		if err := s.sendAll(ctx, page, send); err != nil {
			return err
		}
		if len(page) < listenPage {
			return nil
		}
		after = page[len(page)-1].Seq
	}
}

// forward sends the deliveries notes announce, in their order (commit
// order), unless sent already or acknowledged since; a note that another
// connection took the session over ends the run.
func (s *ListenSession) forward(ctx context.Context, notes []listenNote, send func(context.Context, *models.ListenEvent) error) error {
	order := make([]uuid.UUID, 0, len(notes))
	for _, n := range notes {
		if n.takenBy != (uuid.UUID{}) && n.takenBy != s.holder {
			return ErrListenTaken
		}
		if n.delivery != (uuid.UUID{}) {
			order = append(order, n.delivery)
		}
	}
	if len(order) == 0 {
		return nil
	}
	var found []*models.WebhookDelivery
	err := s.ls.svc.DB.Tenant(s.scope).Select(&found).
		Where("d.endpoint_id = ? AND d.status = ? AND d.id IN (?)", s.ID, models.WebhookDeliveryPending, bun.In(order)).
		Scan(ctx)
	if err != nil {
		return err
	}
	byID := make(map[uuid.UUID]*models.WebhookDelivery, len(found))
	for _, d := range found {
		byID[d.ID] = d
	}
	page := make([]*models.WebhookDelivery, 0, len(found))
	for _, id := range order {
		if d, ok := byID[id]; ok {
			page = append(page, d)
		}
	}
	return s.sendAll(ctx, page, send)
}

// sendAll sends deliveries in their order, each once room is free for it,
// with their events read in one statement.
func (s *ListenSession) sendAll(ctx context.Context, deliveries []*models.WebhookDelivery, send func(context.Context, *models.ListenEvent) error) error {
	if len(deliveries) == 0 {
		return nil
	}
	eventIDs := make([]uuid.UUID, len(deliveries))
	for i, d := range deliveries {
		eventIDs[i] = d.EventID
	}
	var evs []*events.Event
	if err := s.ls.svc.DB.Tenant(s.scope).Select(&evs).Where("e.id IN (?)", bun.In(eventIDs)).Scan(ctx); err != nil {
		return err
	}
	byID := make(map[uuid.UUID]*events.Event, len(evs))
	for _, e := range evs {
		byID[e.ID] = e
	}
	for _, d := range deliveries {
		ev, ok := byID[d.EventID]
		if !ok {
			continue
		}
		fresh, err := s.reserve(ctx, d.ID)
		if err != nil {
			return err
		}
		if !fresh {
			continue
		}
		le, err := s.event(d, ev)
		if err != nil {
			return err
		}
		if err := send(ctx, le); err != nil {
			return err
		}
	}
	return nil
}

// event is a delivery as the CLI receives it: the event as an endpoint
// receives it, signed as an endpoint's delivery is, under the session's
// secret.
func (s *ListenSession) event(d *models.WebhookDelivery, ev *events.Event) (*models.ListenEvent, error) {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	return &models.ListenEvent{DeliveryID: d.ID, EventType: ev.Type, Payload: body,
		Headers: models.ListenHeaders{Event: ev.Type, Signature: webhook.Sign(s.Secret, body),
			WebhookID: d.ID.String(), UserAgent: deliveryUserAgent, ContentType: "application/json"}}, nil
}
