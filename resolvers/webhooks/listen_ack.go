package webhooks

import (
	"context"
	"fmt"
	"math"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Ack records the CLI's acknowledgement of an event as its delivery's
// attempt, readable through the deliveries API like an endpoint's: what
// the CLI's forward-to URL answered, how long it took and the start of its
// answer. A 2xx answer makes the delivery succeeded, anything else failed:
// the CLI forwards, so the server has no retry to make. Only an event sent
// on this connection and not yet acknowledged is recorded; anything else
// (an unknown id, a second ack) is ignored without a statement, so a
// client cannot make the server write more than it was sent.
func (s *ListenSession) Ack(ctx context.Context, a models.ListenAck) error {
	id, ok := ids.Parse(a.DeliveryID)
	if !ok || !s.settle(id) {
		return nil
	}
	spec := op.Spec{Name: "listen_session.ack", Allow: managers, Params: a}
	_, err := op.Write(ctx, s.ls.svc.Kit, spec, func(ctx context.Context, w *op.W) (struct{}, error) {
		del := new(models.WebhookDelivery)
		err := w.Tx.Select(del).Where("d.id = ? AND d.endpoint_id = ? AND d.status = ?",
			id, s.ID, models.WebhookDeliveryPending).For("UPDATE").Scan(ctx)
		if store.IsNoRows(err) {
			return struct{}{}, nil // ended meanwhile
		}
		if err != nil {
			return struct{}{}, err
		}
		now := w.Now()
		at := ackAttempt(a)
		at.ID, at.DeliveryID, at.Attempt, at.URL, at.Created = ids.New(now), del.ID, del.AttemptCount+1, listenSessionURL, wire.At(now)
		if _, err := w.Tx.Insert(at).Exec(ctx); err != nil {
			return struct{}{}, err
		}
		del.Status = models.WebhookDeliveryFailed
		if at.StatusCode != nil && *at.StatusCode >= 200 && *at.StatusCode < 300 {
			del.Status = models.WebhookDeliverySucceeded
		}
		del.AttemptCount, del.LastStatusCode, del.LastError = at.Attempt, at.StatusCode, at.Error
		del.NextAttempt, del.Updated = wire.Timestamp{}, wire.At(now)
		_, err = w.Tx.Update(del).Column("status", "attempt_count", "last_status_code", "last_error", "next_attempt", "updated").
			WherePK().Exec(ctx)
		return struct{}{}, err
	})
	return err
}

// ackAttempt is what an ack says of the forward: an HTTP status is the
// attempt's status code and the answer its excerpt; status 0 means
// nothing was forwarded (no --forward-to, or the URL could not be
// reached), and the CLI's reason is the attempt's error.
func ackAttempt(a models.ListenAck) *models.WebhookAttempt {
	at := &models.WebhookAttempt{LatencyMS: clampInt32(a.DurationMS)}
	switch status := a.Status; {
	case status >= 100 && status <= 599 && status == math.Trunc(status):
		code := int(status)
		at.StatusCode, at.ResponseExcerpt = &code, storableExcerpt(a.ResponseBody)
	case status == 0:
		msg := "not forwarded by the CLI"
		if reason := storableExcerpt(a.ResponseBody); reason != nil {
			msg += ": " + *reason
		}
		at.Error = &msg
	default:
		msg := fmt.Sprintf("the CLI reported a status that is no HTTP status (%g)", status)
		at.Error = &msg
	}
	return at
}

// clampInt32 is a client's number as an int4 column holds it: whole, and
// within 0 and the column's maximum (NaN is 0).
func clampInt32(f float64) int {
	switch {
	case !(f > 0):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	}
	return int(f)
}
