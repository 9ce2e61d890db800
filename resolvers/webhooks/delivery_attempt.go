package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// attempt makes the next attempt of del (locked) to ep (active), in the
// cursor's transaction, and records it: the attempt row, the delivery's
// new state (its retry due Schedule.Backoff later, by the database's
// clock, as River schedules) and the endpoint's health.
func (d *Delivery) attempt(ctx context.Context, tx *store.Tenant, ep *models.WebhookEndpoint, del *models.WebhookDelivery, now time.Time) error {
	signing, err := d.signingSecrets(ctx, ep, now)
	if errors.Is(err, secrets.ErrUnsealable) {
		reason := "the endpoint's signing secret cannot be read with this server secret (SERVER_SECRET changed?): rotate it"
		del.Status, del.LastError, del.NextAttempt, del.Updated = models.WebhookDeliveryFailed, &reason, wire.Timestamp{}, wire.At(now)
		_, err := tx.Update(del).Column("status", "last_error", "next_attempt", "updated").WherePK().Exec(ctx)
		return err
	}
	if err != nil {
		return err
	}
	ev := new(events.Event)
	if err := tx.Select(ev).Where("e.id = ?", del.EventID).Scan(ctx); err != nil {
		return err
	}
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	at := d.postTraced(ctx, ep, del, body, signing, now)
	at.ID, at.DeliveryID, at.Attempt, at.Created = ids.New(now), del.ID, del.AttemptCount+1, wire.At(now)
	if _, err := tx.Insert(at).Exec(ctx); err != nil {
		return err
	}
	del.AttemptCount = at.Attempt
	del.LastStatusCode, del.LastError, del.Updated = at.StatusCode, at.Error, wire.At(d.clock.Now())
	succeeded := at.StatusCode != nil && *at.StatusCode >= 200 && *at.StatusCode < 300
	var retryIn time.Duration
	switch {
	case succeeded:
		del.Status, del.NextAttempt = models.WebhookDeliverySucceeded, wire.Timestamp{}
	case d.cfg.Schedule.Final(del.AttemptCount):
		del.Status, del.NextAttempt = models.WebhookDeliveryFailed, wire.Timestamp{}
	default:
		retryIn = d.cfg.Schedule.Backoff(del.AttemptCount)
		del.NextAttempt = wire.At(now.Add(retryIn))
	}
	_, err = tx.Update(del).Column("status", "attempt_count", "last_status_code", "last_error", "next_attempt", "updated").
		Set("retry_at = clock_timestamp() + ? * interval '1 microsecond'", retryIn.Microseconds()).
		WherePK().Exec(ctx)
	if err != nil {
		return err
	}
	return d.recordHealth(ctx, tx, ep, succeeded, now)
}
