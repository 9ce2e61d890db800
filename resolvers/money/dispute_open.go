package money

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/frame-oss/payments-server/internal/domain/card"
	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Codes of the rules that refuse a dispute or a refund.
const (
	CodeChargeAlreadyDisputed = "charge_already_disputed"
	CodeChargeDisputed        = "charge_disputed"
	CodeChargeAlreadyRefunded = "charge_already_refunded"
	CodeAmountTooLarge        = "amount_too_large"
)

// disputeFee is the fee a dispute withdraws from the merchant with the
// disputed amount, in the charge's currency, returned when the dispute is
// won. A self-hosted server is its own processor and charges nothing, as
// for frame_fee; the journals carry the fee, so a schedule is a one-line
// change here.
var disputeFee = func(currency string) int64 { return 0 }

// disputedOnCapture says whether the sandbox issuer opens a chargeback as
// soon as ch is captured: the dispute test card 4000000000000259.
func disputedOnCapture(ch *models.Charge) bool {
	pm := ch.PaymentMethodDetails
	return pm != nil && pm.SandboxOutcome != nil && *pm.SandboxOutcome == card.OutcomeDispute
}

func defaultDisputeReason() dispute.Reason {
	r, _ := dispute.ReasonFor(dispute.DefaultReason)
	return r
}

// openDispute records a chargeback on charge ch, locked and captured,
// for everything captured and not refunded, and marks the charge
// disputed (the caller writes the charge). It returns the dispute and the
// journal that withdraws its amount and fee from the merchant.
func openDispute(ctx context.Context, w *op.W, ch *models.Charge, reason dispute.Reason) (*models.Dispute, *ledger.Journal, error) {
	now := models.At(w.Now())
	cur := strings.ToUpper(ch.Currency)
	category := models.DisputeCategory(reason.Category)
	d := &models.Dispute{ID: ids.New(w.Now()), Status: dispute.NeedsResponse, AmountCents: ch.AmountCaptured - ch.AmountRefunded,
		AmountCurrency: cur, Fee: disputeFee(cur),
		Reason:                  models.DisputeReason{Code: &reason.Code, Description: &reason.Description, Category: &category},
		AcquirerReferenceNumber: ch.AcquirerReferenceNumber, AuthorizationCode: ch.AuthorizationCode,
		ChargeID: ch.ID, TransferID: ch.TransferID, ChargeIntentID: ch.ChargeIntentID,
		AccountID: ch.AccountID, CustomerID: ch.CustomerID, Created: now, Updated: now}
	if _, err := w.Tx.Insert(d).Exec(ctx); err != nil {
		if _, dup := store.UniqueViolation(err); dup {
			return nil, nil, alreadyDisputed()
		}
		return nil, nil, err
	}
	ch.Disputed = true
	d.Derive()
	return d, disputeJournal(ch, d, false), nil
}

func alreadyDisputed() error {
	return apierr.Rule(CodeChargeAlreadyDisputed, "The charge already has a dispute", "", nil)
}

// Open is the sandbox's stand-in for a cardholder's bank disputing
// a charge (POST /v1/test_helpers/charges/{id}/dispute): a chargeback on
// a succeeded, captured charge for what was captured and not refunded,
// with the issuer's reason (fraudulent unless in.Reason names another).
// The disputed amount and the dispute fee leave the merchant's balance at
// once. Sandbox keys only (production: 403); a charge disputed already is
// 422 charge_already_disputed, one fully refunded 422
// charge_already_refunded, one not captured 422 invalid_state.
func (ds *Disputes) Open(ctx context.Context, chargeID string, in *models.OpenDisputeInput) (*models.Dispute, error) {
	spec := op.Spec{Name: "dispute.open", Allow: secretOnly, Params: map[string]any{"id": chargeID, "input": in},
		Check: in.Validate}
	return op.Write(ctx, ds.Kit, spec, func(ctx context.Context, w *op.W) (*models.Dispute, error) {
		if w.Tx.Scope().Livemode {
			return nil, apierr.Forbidden("Test helpers are available with sandbox keys only")
		}
		uid, ok := ids.Parse(chargeID)
		if !ok {
			return nil, apierr.NotFound("charge", chargeID)
		}
		ch, _, err := lockChargeByID(ctx, w, uid, "id")
		if err != nil {
			return nil, err
		}
		switch {
		case ch.Status != models.ChargeSucceeded || ch.AmountCaptured == 0:
			return nil, apierr.InvalidState("Only a captured charge can be disputed")
		case ch.Disputed:
			return nil, alreadyDisputed()
		case ch.AmountRefunded == ch.AmountCaptured:
			return nil, apierr.Rule(CodeChargeAlreadyRefunded, "The charge was refunded in full: nothing is left to dispute", "", nil)
		}
		reason := defaultDisputeReason()
		if in.Reason != nil {
			reason, _ = dispute.ReasonFor(*in.Reason)
		}
		d, j, err := openDispute(ctx, w, ch, reason)
		if err != nil {
			return nil, err
		}
		if err := saveCharge(ctx, w, ch); err != nil {
			return nil, err
		}
		if err := ledger.Post(ctx, w.Tx, w.Now(), j); err != nil {
			return nil, err
		}
		return d, emitDispute(w, EventDisputeCreated, d, nil)
	})
}

// emitDispute announces typ with the dispute as REST renders it.
func emitDispute(w *op.W, typ events.Type, d *models.Dispute, prev map[string]any) error {
	d.Derive()
	raw, err := events.Render(d)
	if err != nil {
		return err
	}
	w.Emit(typ, d.ID, json.RawMessage(raw), prev)
	return nil
}
