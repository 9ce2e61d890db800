package money

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create refunds the charge behind a transfer or a charge intent
// (POST /v1/refunds), all that remains of it or amount of it. The charge
// row is locked (after its transfer's), so racing refunds see each
// other's amounts and never exceed what was captured; the database's
// CHECK on the charge guarantees it too.
//
// Refused: a payout (validation error on transfer); a transfer or charge
// with nothing captured (422 invalid_state); a disputed charge (422
// charge_disputed: the cardholder's bank already takes the money back);
// a charge refunded in full (422 charge_already_refunded); more than
// remains (422 amount_too_large, error_details.data.remaining_amount).
//
// The sandbox refunds at once: succeeded, the charge's amount_refunded
// grows, the merchant's balance pays the refund (fees are not returned),
// a fully refunded transfer becomes refunded. The refund-failure test card
// answers failed (recorded, never thrown; nothing moves). Reason
// fraudulent reports the payment method and the buyer's e-mail to the
// merchant's block lists.
func (rs *Refunds) Create(ctx context.Context, in *models.CreateRefundInput) (*models.Refund, error) {
	s := rs.svc
	var req *models.RefundRequest
	spec := op.Spec{Name: "refund.create", Allow: secretOnly, Params: in, Provider: "card processor",
		Check: func() (err error) { req, err = in.Validate(); return err }}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Refund, error) {
		ch, t, err := refundTarget(ctx, w, req)
		if err != nil {
			return nil, err
		}
		amount, err := refundable(ch, req.Amount)
		if err != nil {
			return nil, err
		}
		now := models.At(w.Now())
		r := &models.Refund{ID: ids.New(w.Now()), Amount: amount, Currency: strings.ToUpper(ch.Currency), Status: models.RefundSucceeded,
			Reason: req.Reason, ChargeID: ch.ID, TransferID: ch.TransferID, ChargeIntentID: ch.ChargeIntentID,
			AccountID: ch.AccountID, CustomerID: ch.CustomerID, Created: now, Updated: now}
		outcome := ""
		if ch.PaymentMethodDetails != nil && ch.PaymentMethodDetails.SandboxOutcome != nil {
			outcome = *ch.PaymentMethodDetails.SandboxOutcome
		}
		if reason := processor.Refund(outcome); reason != "" {
			r.Status, r.FailureReason = models.RefundFailed, &reason
		}
		if _, err := w.Tx.Insert(r).Exec(ctx); err != nil {
			return nil, err
		}
		if r.Reason != nil && *r.Reason == models.RefundReasonFraudulent {
			if err := reportFraud(ctx, w, ch, r); err != nil {
				return nil, err
			}
		}
		if err := emitRefund(w, EventRefundCreated, r); err != nil {
			return nil, err
		}
		if r.Status == models.RefundFailed {
			return r, emitRefund(w, EventRefundFailed, r)
		}
		return r, s.applyRefund(ctx, w, ch, t, r)
	})
}

// refundTarget locks the charge a refund acts on: the transfer's (its
// row first) or the charge intent's latest succeeded charge.
func refundTarget(ctx context.Context, w *op.W, req *models.RefundRequest) (*models.Charge, *models.Transfer, error) {
	if req.ChargeIntentID != nil {
		ch, err := lockChargeOfIntent(ctx, w, *req.ChargeIntentID)
		return ch, nil, err
	}
	t, err := transferTable.Lock(ctx, w, req.TransferID.String(), op.LockUpdate)
	if err != nil {
		if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
			e.Param = "transfer"
		}
		return nil, nil, err
	}
	if !t.IsCharge() {
		return nil, nil, apierr.FieldError("transfer", "is a payout: only a charge can be refunded")
	}
	if t.LatestCharge == nil || t.AmountCaptured == 0 {
		return nil, nil, apierr.InvalidState("A transfer in status " + string(t.Status) + " has captured nothing to refund")
	}
	ch, err := lockCharge(ctx, w, *t.LatestCharge, t.SourcePaymentMethod)
	if err != nil {
		return nil, nil, err
	}
	ch.Derive()
	return ch, t, nil
}

// refundable is the amount a refund of ch may take: asked (nil for all
// that remains), at most what remains of the captured amount.
func refundable(ch *models.Charge, asked *int64) (int64, error) {
	remaining := ch.AmountCaptured - ch.AmountRefunded
	switch {
	case ch.Status != models.ChargeSucceeded || ch.AmountCaptured == 0:
		return 0, apierr.InvalidState("The charge has captured nothing to refund")
	case ch.Disputed:
		return 0, apierr.Rule(CodeChargeDisputed, "The charge is disputed: its money goes back through the dispute, not a refund", "", nil)
	case remaining == 0:
		return 0, apierr.Rule(CodeChargeAlreadyRefunded, "The charge has already been refunded in full", "", nil)
	case asked == nil:
		return remaining, nil
	case *asked > remaining:
		return 0, apierr.Rule(CodeAmountTooLarge, "The refund amount ("+strconv.FormatInt(*asked, 10)+
			") is greater than the charge's unrefunded amount ("+strconv.FormatInt(remaining, 10)+")", "amount",
			map[string]any{"remaining_amount": remaining})
	}
	return *asked, nil
}

// applyRefund moves a succeeded refund's money and records it on the
// charge and, once it is refunded in full, on its transfer.
func (s *Service) applyRefund(ctx context.Context, w *op.W, ch *models.Charge, t *models.Transfer, r *models.Refund) error {
	ch.AmountRefunded += r.Amount
	if r.Reason != nil {
		ch.RefundReason = r.Reason
	}
	if err := saveCharge(ctx, w, ch); err != nil {
		return err
	}
	if err := ledger.Post(ctx, w.Tx, w.Now(), refundJournal(ch, r)); err != nil {
		return err
	}
	raw, err := events.Render(ch)
	if err != nil {
		return err
	}
	w.Emit(EventChargeRefunded, ch.ID, json.RawMessage(raw), nil)
	if t == nil || !ch.Refunded {
		return nil
	}
	prev := map[string]any{"status": t.Status}
	t.Status = models.TransferRefunded
	t.Updated = models.At(w.Now())
	if _, err := w.Tx.Update(t).Column("status", "updated").WherePK().Exec(ctx); err != nil {
		return err
	}
	return emit(w, EventTransferUpdated, t, prev)
}

// emitRefund announces typ with the refund as REST renders it.
func emitRefund(w *op.W, typ events.Type, r *models.Refund) error {
	raw, err := events.Render(r)
	if err != nil {
		return err
	}
	w.Emit(typ, r.ID, json.RawMessage(raw), nil)
	return nil
}
