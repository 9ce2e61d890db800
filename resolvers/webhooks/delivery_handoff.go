package webhooks

import (
	"context"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// DeliverArgs is the job of one delivery that earlier versions enqueued
// (one job per delivery). Such jobs may still wait in river_job after an
// upgrade: each hands its delivery back to the dispatcher, which gives its
// endpoint a cursor (CursorArgs).
type DeliverArgs struct {
	jobs.Tenant
	DeliveryID uuid.UUID `json:"delivery_id"`
	EndpointID uuid.UUID `json:"endpoint_id"`
}

// Kind names the job in river_job.
func (DeliverArgs) Kind() string { return "webhook_delivery" }

// InsertOpts puts deliveries in their own queue.
func (DeliverArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

type handOffWorker struct {
	river.WorkerDefaults[DeliverArgs]
	d *Delivery
}

// Work marks the delivery, if still pending, as not enqueued: the
// dispatcher's next pass (at the latest after PollInterval) takes it up.
func (w *handOffWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	a := job.Args
	return w.d.db.Tx(ctx, a.Scope(), func(ctx context.Context, tx *store.Tenant) error {
		_, err := tx.Update((*models.WebhookDelivery)(nil)).Set("enqueued = false").
			Where("d.id = ? AND d.status = 'pending'", a.DeliveryID).Exec(ctx)
		return err
	})
}
