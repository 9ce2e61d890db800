package webhooks

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// CursorArgs is the River job of one endpoint with deliveries pending: its
// cursor. Each turn it makes one attempt, of the endpoint's pending
// delivery due first in insertion order (first attempts in the order the
// events were written; a retry once its time has come), then goes to the
// back of the queue for its next turn. So an endpoint has at most one
// delivery in flight, a job waits for a retry's time in River's schedule
// instead of in a worker, and the endpoints share the workers in turn. At
// most one cursor exists per endpoint (unique by its args while it waits
// or runs).
type CursorArgs struct {
	jobs.Tenant
	EndpointID uuid.UUID `json:"endpoint_id"`
}

// Kind names the job in river_job.
func (CursorArgs) Kind() string { return "webhook_endpoint_cursor" }

// cursorStates are the states in which a cursor counts as the endpoint's
// one: a completed one does not, so a new one can start once it ends.
var cursorStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
	rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}

// InsertOpts puts cursors in the delivery queue, one per endpoint.
func (CursorArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: cursorStates}}
}

// lockCursorSQL serialises the two decisions that could otherwise lose a
// delivery: the dispatcher's "this endpoint has a cursor" and a cursor's
// "nothing is left, I end". Held by either, the other waits, so a delivery
// the dispatcher saw is either found by the cursor still running or finds
// no cursor and gets a new one.
const lockCursorSQL = `SELECT pg_advisory_xact_lock(hashtextextended('webhook_cursor|' || $1::text, 0))`

// takeShareSQL takes one of the merchant's slots of deliveries in flight
// ($2 numbers it) for the transaction, if free.
const takeShareSQL = `SELECT pg_try_advisory_xact_lock(hashtextextended('webhook_share|' || $1::text || '|' || $2::text, 0))`

// pendingSQL is what an endpoint's cursor has left: how many deliveries
// are pending, whether one is due now, and when the earliest retry is due.
// Retry times are the database's (retry_at), as River's schedule is: the
// successor's time comes from there, and no process clock is read.
const pendingSQL = `
SELECT count(*), coalesce(bool_or(retry_at IS NULL OR retry_at <= clock_timestamp()), false), min(retry_at)
FROM webhook_deliveries
WHERE merchant_id = $1 AND livemode = $2 AND endpoint_id = $3 AND status = 'pending'`

type cursorWorker struct {
	river.WorkerDefaults[CursorArgs]
	d *Delivery
}

// Timeout leaves room for the POST and the statements around it.
func (w *cursorWorker) Timeout(*river.Job[CursorArgs]) time.Duration {
	return w.d.cfg.Timeout + time.Minute
}

// next is what a cursor does after its turn.
type next int

const (
	nextTurn  next = iota // back of the queue: the endpoint may have more due
	nextWait              // the endpoint or the merchant's share is busy: look again after ShareWait
	nextEnded             // completed (and, when a retry is pending, succeeded by a cursor scheduled for it)
)

// Work takes one turn, in one transaction that holds the endpoint's lock,
// one of its merchant's slots and the delivery's row: two workers (in one
// process or many) never make one attempt twice, one endpoint has one
// delivery in flight, and one merchant at most MerchantShare. A crash
// after the POST and before the commit loses the record, not the
// delivery: the cursor runs again (at least once).
func (w *cursorWorker) Work(ctx context.Context, job *river.Job[CursorArgs]) error {
	a := job.Args
	// Loaded before the transaction: its first load takes a pool
	// connection of its own (see op.Write).
	if _, err := w.d.secrets.Get(ctx); err != nil {
		return err
	}
	var then next
	err := w.d.db.Tx(ctx, a.Scope(), func(ctx context.Context, tx *store.Tenant) error {
		var err error
		then, err = w.d.turn(ctx, tx, job)
		return err
	})
	switch {
	case err != nil:
		return err
	case then == nextTurn:
		return river.JobSnooze(0)
	case then == nextWait:
		return river.JobSnooze(w.d.cfg.ShareWait)
	}
	return nil
}

// turn is one turn of an endpoint's cursor.
func (d *Delivery) turn(ctx context.Context, tx *store.Tenant, job *river.Job[CursorArgs]) (next, error) {
	a := job.Args
	locked, err := tx.TryLock(ctx, "webhook_endpoint:"+a.EndpointID.String())
	if err != nil || !locked {
		return nextWait, err
	}
	if free, err := d.takeShare(ctx, tx, a.MerchantID); err != nil || !free {
		return nextWait, err
	}
	ep := new(models.WebhookEndpoint)
	if err := tx.Select(ep).Where("w.id = ?", a.EndpointID).Scan(ctx); err != nil {
		return nextTurn, err
	}
	now := d.clock.Now()
	if !ep.Deleted.IsZero() || ep.Status != models.WebhookEndpointActive {
		if err := d.failPending(ctx, tx, ep, now); err != nil {
			return nextTurn, err
		}
		return d.end(ctx, tx, job)
	}
	del := new(models.WebhookDelivery)
	err = tx.Select(del).ColumnExpr("?TableColumns, d.seq").Where("d.endpoint_id = ?", a.EndpointID).
		Where("d.status = 'pending' AND (d.retry_at IS NULL OR d.retry_at <= clock_timestamp())").
		OrderExpr("d.seq").Limit(1).For("UPDATE").Scan(ctx)
	if store.IsNoRows(err) {
		return d.end(ctx, tx, job)
	}
	if err != nil {
		return nextTurn, err
	}
	return nextTurn, d.attempt(ctx, tx, ep, del, now)
}

// takeShare takes one of the merchant's MerchantShare slots of deliveries
// in flight for the transaction, and reports false when all are taken.
// The slots are the merchant's in both modes and in every server process.
func (d *Delivery) takeShare(ctx context.Context, tx *store.Tenant, merchant uuid.UUID) (bool, error) {
	var took bool
	err := tx.PgxTx(ctx, func(ptx pgx.Tx) error {
		for slot := range d.cfg.MerchantShare {
			if err := ptx.QueryRow(ctx, takeShareSQL, merchant.String(), strconv.Itoa(slot)).Scan(&took); err != nil || took {
				return err
			}
		}
		return nil
	})
	return took, err
}

// failPending ends every pending delivery of an endpoint that is disabled
// or deleted, without an attempt.
func (d *Delivery) failPending(ctx context.Context, tx *store.Tenant, ep *models.WebhookEndpoint, now time.Time) error {
	reason := "endpoint disabled before delivery"
	if !ep.Deleted.IsZero() {
		reason = "endpoint deleted before delivery"
	}
	_, err := tx.Update((*models.WebhookDelivery)(nil)).
		Set("status = ?", models.WebhookDeliveryFailed).Set("last_error = ?", reason).
		Set("next_attempt = NULL").Set("retry_at = NULL").Set("updated = ?", wire.At(now)).
		Where("d.endpoint_id = ? AND d.status = 'pending'", ep.ID).Exec(ctx)
	return err
}

// end is a turn that found nothing due. Under the cursor lock, it looks
// again at what is pending: something due (written since) takes another
// turn; nothing pending completes the cursor; only retries not yet due
// complete it and schedule its successor for the earliest, so that no
// worker waits for it, and the dispatcher can wake the successor early
// when a new delivery comes.
func (d *Delivery) end(ctx context.Context, tx *store.Tenant, job *river.Job[CursorArgs]) (next, error) {
	a := job.Args
	then := nextEnded
	err := tx.PgxTx(ctx, func(ptx pgx.Tx) error {
		if _, err := ptx.Exec(ctx, lockCursorSQL, a.EndpointID.String()); err != nil {
			return err
		}
		var pending int
		var dueNow bool
		var retryAt *time.Time
		if err := ptx.QueryRow(ctx, pendingSQL, a.MerchantID, a.Livemode, a.EndpointID).Scan(&pending, &dueNow, &retryAt); err != nil {
			return err
		}
		if dueNow {
			then = nextTurn
			return nil
		}
		if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, ptx, job); err != nil {
			return err
		}
		if pending == 0 || retryAt == nil {
			return nil
		}
		_, err := river.ClientFromContext[pgx.Tx](ctx).InsertTx(ctx, ptx, a, &river.InsertOpts{ScheduledAt: *retryAt})
		return err
	})
	return then, err
}
