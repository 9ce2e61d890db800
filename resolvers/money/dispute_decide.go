package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// DisputeDecisionArgs is the job in which the sandbox issuer decides a
// dispute whose evidence was submitted.
type DisputeDecisionArgs struct {
	jobs.Tenant
	DisputeID uuid.UUID `json:"dispute_id"`
}

// Kind names the job.
func (DisputeDecisionArgs) Kind() string { return "dispute.decide" }

// Row is the dispute to decide (jobs.RowArgs); a dispute decided already
// makes the job a no-op.
func (a DisputeDecisionArgs) Row() (store.Scope, uuid.UUID) {
	return a.Scope(), a.DisputeID
}

// DecideDispute applies the sandbox issuer's decision to a dispute under
// review, at the clock's time: the submitted uncategorized_text
// "winning_evidence" wins it, anything else loses it
// (internal/domain/dispute.Decide). A won dispute gives the merchant back
// the disputed amount and the fee (a journal); a lost one moves nothing
// more, its money left with the first journal. charge.dispute.closed
// announces it. A dispute not under review is left alone.
func (s *Service) DecideDispute(ctx context.Context, scope store.Scope, id uuid.UUID) error {
	return op.Background(ctx, s.Kit, scope, func(ctx context.Context, w *op.W) error {
		d, err := disputeTable.Lock(ctx, w, id.String(), op.LockUpdate)
		if apierr.As(err) != nil && apierr.As(err).Code == apierr.CodeResourceMissing {
			return nil // the write that enqueued it never committed
		}
		if err != nil {
			return err
		}
		next, ok := dispute.Next(string(d.Status), dispute.Decide(d.Evidence.UncategorizedText))
		if !ok {
			return nil
		}
		before, err := events.Render(d)
		if err != nil {
			return err
		}
		now := models.At(w.Now())
		d.Status, d.Closed, d.Updated = models.DisputeStatus(next), &now, now
		if _, err := w.Tx.Update(d).Column("status", "closed", "updated").WherePK().Exec(ctx); err != nil {
			return err
		}
		if next == dispute.Won {
			ch := new(models.Charge)
			if err := w.Tx.Select(ch).Relation("PaymentMethodDetails").Where("ch.id = ?", d.ChargeID).Scan(ctx); err != nil {
				return err
			}
			if err := ledger.Post(ctx, w.Tx, w.Now(), disputeJournal(ch, d, true)); err != nil {
				return err
			}
		}
		d.Derive()
		prev, err := previousAttributes(before, d)
		if err != nil {
			return err
		}
		return emitDispute(w, EventDisputeClosed, d, prev)
	})
}
