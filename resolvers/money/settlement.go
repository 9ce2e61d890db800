package money

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PartySettledFunds is money that has settled into, or been paid out of,
// the platform's bank account: where clearing balances end up.
const PartySettledFunds = "settled_funds"

// settlementDelay is how long after it succeeds a transfer settles in the
// sandbox (docs/payments.md, "Settlement"): card charges the next day,
// ACH debits after three days, push-to-card payouts within the half hour,
// ACH payouts the next day.
var settlementDelay = map[string]time.Duration{
	models.BillableChargeCard:       24 * time.Hour,
	models.BillableChargeACH:        72 * time.Hour,
	models.BillablePayoutPushToCard: 30 * time.Minute,
	models.BillablePayoutACH:        24 * time.Hour,
}

// SettleTransferArgs is the job that settles one succeeded transfer. It is
// scheduled at the transfer's settles_at, which the write that made it
// succeed computed from the clock.
type SettleTransferArgs struct {
	jobs.Tenant
	TransferID uuid.UUID `json:"transfer_id"`
	SettlesAt  time.Time `json:"settles_at"`
}

// Kind names the job.
func (SettleTransferArgs) Kind() string { return "transfer.settle" }

// InsertOpts schedules the job at the settlement time.
func (a SettleTransferArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{ScheduledAt: a.SettlesAt}
}

// settleWorker settles transfers. River schedules by the wall clock; the
// worker decides by the server's clock, and snoozes a job that arrives
// before the transfer's settles_at by that clock.
type settleWorker struct {
	river.WorkerDefaults[SettleTransferArgs]
	svc *Service
}

func (w *settleWorker) Work(ctx context.Context, job *river.Job[SettleTransferArgs]) error {
	a := job.Args
	wait, err := w.svc.SettleTransfer(ctx, a.Scope(), a.TransferID)
	if err != nil {
		return err
	}
	if wait > 0 {
		return river.JobSnooze(wait)
	}
	return nil
}

// scheduleSettlement sets when a transfer succeeding now settles and
// enqueues its settlement in the same write, so the job exists exactly
// when the success commits.
func scheduleSettlement(ctx context.Context, w *op.W, t *models.Transfer, now time.Time) error {
	t.SettlesAt = models.At(now.Add(settlementDelay[t.BillableEventType]))
	scope := w.Tx.Scope()
	return w.Enqueue(ctx, SettleTransferArgs{Tenant: jobs.TenantOf(scope),
		TransferID: t.ID, SettlesAt: t.SettlesAt.Time})
}

// SettleTransfer completes a succeeded transfer whose settles_at has come
// by the clock: it posts the settlement journal (what the card processor
// or bank paid, or what left for a payout's recipient) and announces
// transfer.completed, once — a transfer already completed, or no longer
// succeeded, is left alone. Before its time it changes nothing and says
// how long is left.
func (s *Service) SettleTransfer(ctx context.Context, scope store.Scope, id uuid.UUID) (time.Duration, error) {
	var wait time.Duration
	err := op.Background(ctx, s.Kit, scope, func(ctx context.Context, w *op.W) error {
		t, err := transferTable.Lock(ctx, w, id.String(), op.LockUpdate)
		if err != nil {
			if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
				return nil // the write that scheduled it never committed
			}
			return err
		}
		if t.Status != models.TransferSucceeded || !t.Completed.IsZero() || t.SettlesAt.IsZero() {
			return nil
		}
		now := w.Now()
		if now.Before(t.SettlesAt.Time) {
			wait = t.SettlesAt.Sub(now)
			return nil
		}
		if err := ledger.Post(ctx, w.Tx, now, settlementJournal(t, now)); err != nil {
			return err
		}
		t.Completed, t.Updated = models.At(now), models.At(now)
		if _, err := w.Tx.Update(t).Column("completed", "updated").WherePK().Exec(ctx); err != nil {
			return err
		}
		return emit(w, EventTransferCompleted, t, nil)
	})
	return wait, err
}

// settlementJournal is the movement of a settlement:
//
//	charge: debit settled_funds, credit card_clearing or ach_clearing,
//	        gross_amount (what the buyer paid arrives)
//	payout: debit payout_clearing, credit settled_funds, net_amount (what
//	        the recipient receives leaves)
func settlementJournal(t *models.Transfer, now time.Time) *ledger.Journal {
	c := t.Currency
	j := &ledger.Journal{ID: ids.New(now), RefType: RefTransfer, RefID: t.ID, ChargeID: t.LatestCharge}
	switch t.BillableEventType {
	case models.BillablePayoutPushToCard, models.BillablePayoutACH:
		j.Kind = string(models.JournalPayoutSettle)
		j.Entries = []ledger.Entry{ledger.Debit(PartyPayoutClearing, c, t.NetAmount), ledger.Credit(PartySettledFunds, c, t.NetAmount)}
	default:
		clearing := PartyCardClearing
		if t.BillableEventType == models.BillableChargeACH {
			clearing = PartyACHClearing
		}
		j.Kind = string(models.JournalChargeSettle)
		j.Entries = []ledger.Entry{ledger.Debit(PartySettledFunds, c, t.GrossAmount), ledger.Credit(clearing, c, t.GrossAmount)}
	}
	return j
}
