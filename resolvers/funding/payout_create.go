package funding

import (
	"context"
	"encoding/json"

	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create sends money from the instant-payout balance to an
// account's own card or bank account (spec doc 2 §4.7, docs/funding.md):
//
//  1. the input: payment_method, amount > 0, currency USD, speed;
//  2. the destination (payoutDestination): an active method attached to
//     an account of the caller, speed required for a bank account and
//     refused for a card, the account's card_receive or
//     bank_account_receive active and its KYC approved;
//  3. under the instant-payout balance's row lock, the price (the payout
//     agreements, money.PricePayout) and the balance check: the balance
//     must cover the amount and the fees the merchant bears (else 422
//     balance_insufficient, nothing recorded);
//  4. the sandbox network's answer: a declining test card or bank account
//     fails the payout (recorded, 201, nothing moves); otherwise it is
//     sent and journaled.
//
// The payout, its journal, its events and the idempotency record commit
// together.
func (ps *Payouts) Create(ctx context.Context, in *models.CreatePayoutInput) (*models.Payout, error) {
	s := ps.svc
	var req *models.PayoutRequest
	spec := op.Spec{Name: "payout.create", Allow: secretOnly, Params: in, Provider: payoutProvider,
		Check: func() (err error) { req, err = in.Validate(); return err }}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Payout, error) {
		dest, err := payoutDestination(ctx, w.Tx, req)
		if err != nil {
			return nil, err
		}
		available, err := s.lockAvailable(ctx, w, req.Currency)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		price, err := money.PricePayout(ctx, w.Tx, now, dest.event, dest.account, req.Amount, req.Currency)
		if err != nil {
			return nil, err
		}
		p := &models.Payout{ID: ids.New(now), Status: models.PayoutSucceeded, Speed: req.Speed, Amount: req.Amount,
			Currency: req.Currency, PaymentMethodID: dest.method.ID, AccountID: dest.account,
			Metadata: req.Metadata, Created: models.At(now), Updated: models.At(now), Succeeded: models.At(now)}
		platformFee := applyPrice(p, price)
		if needed := p.Amount + merchantFee(p); needed > available {
			return nil, insufficient(available, needed, p.Currency)
		}
		outcome := ""
		if dest.method.SandboxOutcome != nil {
			outcome = *dest.method.SandboxOutcome
		}
		if answer := processor.Charge(outcome, p.Amount, false); answer.Result == processor.Declined {
			msg := processor.Message(answer.Code)
			p.Status, p.FailureCode, p.FailureMessage = models.PayoutFailed, &answer.Code, &msg
			p.Succeeded, p.Failed = models.Timestamp{}, models.At(now)
		}
		if _, err := w.Tx.Insert(p).Exec(ctx); err != nil {
			return nil, err
		}
		if err := emit(w, EventPayoutCreated, p); err != nil {
			return nil, err
		}
		if p.Status == models.PayoutFailed {
			return p, emit(w, EventPayoutFailed, p)
		}
		if err := ledger.Post(ctx, w.Tx, now, payoutJournal(p, platformFee)); err != nil {
			return nil, overdrawn(err)
		}
		return p, emit(w, EventPayoutSucceeded, p)
	})
}

// applyPrice sets the payout's fee members from its price and answers the
// plan's fee (what the platform earns). processor_fee is the service's
// processing fee (frame_fee; 0 on a self-hosted server). The fees (the
// processor's and the plan's) are borne by the recipient under a deduct
// plan (customer_fee: it receives amount − fees) and by the merchant
// otherwise (merchant_fee: its balance pays amount + fees). Without a
// plan there is no plan fee and nobody is named: merchant_fee and
// customer_fee are null.
func applyPrice(p *models.Payout, price *money.PayoutPrice) int64 {
	if price == nil {
		return 0
	}
	q := price.Quote
	planID, agreementID := price.PlanID, price.AgreementID
	p.TransferFeePlanID, p.BillingAgreementID = &planID, &agreementID
	p.ProcessorFee = q.FrameFee
	var zero, total int64 = 0, q.TotalFees
	if price.Mode == fees.Deduct {
		p.CustomerFee, p.MerchantFee = &total, &zero
	} else {
		p.MerchantFee, p.CustomerFee = &total, &zero
	}
	return q.PlatformFee
}

// merchantFee is what the merchant's balance pays beyond the amount.
func merchantFee(p *models.Payout) int64 {
	if p.MerchantFee == nil {
		return 0
	}
	return *p.MerchantFee
}

// emit announces typ with the payout as REST renders it.
func emit(w *op.W, typ events.Type, p *models.Payout) error {
	p.Derive()
	raw, err := events.Render(p)
	if err != nil {
		return err
	}
	w.Emit(typ, p.ID, json.RawMessage(raw), nil)
	return nil
}
