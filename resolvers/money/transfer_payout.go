package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PartyPayoutClearing is what is owed to the card network or bank for
// payouts sent.
const PartyPayoutClearing = "payout_clearing"

// payout sends money from the merchant to the account's own card (push to
// card) or bank account (spec doc 2 §4.7 rules; API-DECISIONS §4): the
// destination must be the account's active method, the account's
// card_receive (cards) or bank_account_receive (bank accounts) capability
// active, the currency USD, and a payout agreement (or explicit plan)
// must price the flow. Promotion codes do not apply to payouts. The
// sandbox sends at once: a card or bank test account that declines
// charges declines payouts with the same code.
func (s *Service) payout(ctx context.Context, w *op.W, in *models.CreateTransferInput, req *models.TransferRequest) (*models.Transfer, error) {
	var f apierr.Fields
	if req.Currency != "USD" {
		f.Add("currency", "must be USD for a payout")
	}
	if len(req.PromotionCodes) > 0 {
		f.Add("promotion_codes", "are not accepted on a payout")
	}
	if req.AuthorizationMode != "automatic" {
		f.Add("authorization_mode", "is not accepted on a payout")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	pm, err := ownMethod(ctx, w, *req.DestinationPaymentMethodID, req.AccountID, "destination_payment_method_id")
	if err != nil {
		return nil, err
	}
	event, needed := models.BillablePayoutPushToCard, capability.CardReceive
	if pm.Type == models.PaymentMethodACH {
		event, needed = models.BillablePayoutACH, capability.BankAccountReceive
	}
	if err := requireActive(ctx, w.Tx, req, needed); err != nil {
		return nil, err
	}
	price, err := resolvePricing(ctx, w.Tx, w.Now(), models.CategoryPayout, event, &req.AccountID, req.FeePlanID, "transfer_fee_plan_id")
	if err != nil {
		return nil, err
	}
	now := w.Now()
	t := &models.Transfer{ID: ids.New(now), Status: models.TransferSucceeded, Amount: req.Amount,
		AmountBeforeDiscounts: req.Amount, AmountCaptured: req.Amount, Currency: req.Currency,
		Description: in.Description, FeeSource: price.feeSource(), FeeApplicationMode: price.plan.FeeApplicationMode,
		TransferFeePlanID: price.plan.ID, AuthorizationMode: models.AuthorizationAutomatic, AccountID: req.AccountID, SellerID: req.SellerID,
		DestinationPaymentMethodID: &pm.ID, DestinationPaymentMethod: pm, BillableEventType: event,
		Reference: in.Reference, Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Updated: models.At(now)}
	if price.agreement != nil {
		t.BillingAgreementID = &price.agreement.ID
	}
	q, err := price.quote(req.Amount, t.Currency)
	if err != nil {
		return nil, err
	}
	t.PlatformFee, t.FrameFee, t.TotalFees, t.GrossAmount, t.NetAmount = q.PlatformFee, q.FrameFee, q.TotalFees, q.GrossAmount, q.NetAmount
	outcome := ""
	if pm.SandboxOutcome != nil {
		outcome = *pm.SandboxOutcome
	}
	answer := processor.Charge(outcome, q.GrossAmount, false)
	declined := answer.Result == processor.Declined
	if declined {
		msg, reason := processor.Message(answer.Code), processor.Reason(answer.Code, pm.Type == models.PaymentMethodACH)
		t.Status, t.AmountCaptured, t.FailureCode, t.FailureMessage, t.FailureReason = models.TransferFailed, 0, &answer.Code, &msg, &reason
	}
	if !declined {
		if err := scheduleSettlement(ctx, w, t, now); err != nil {
			return nil, err
		}
	}
	if _, err := w.Tx.Insert(t).Exec(ctx); err != nil {
		return nil, err
	}
	if err := emit(w, EventTransferCreated, t, nil); err != nil {
		return nil, err
	}
	if declined {
		return t, emit(w, EventTransferFailed, t, nil)
	}
	if err := ledger.Post(ctx, w.Tx, now, payoutJournal(t, q.GrossAmount+q.MerchantFee, q)); err != nil {
		return nil, err
	}
	return t, emit(w, EventTransferSucceeded, t, nil)
}

// requireActive refuses a payout to an account whose receive capability
// is not active (422 capability_not_active).
func requireActive(ctx context.Context, t *store.Tenant, req *models.TransferRequest, name capability.Name) error {
	n, err := t.Select((*models.Capability)(nil)).Where("c.account_id = ?", req.AccountID).
		Where("c.name = ?", name).Where("c.status = ?", capability.StatusActive).Count(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return apierr.Rule("capability_not_active", "The account's "+string(name)+" capability must be active to receive a payout",
			"destination_payment_method_id", map[string]any{"capability": string(name)})
	}
	return nil
}

// ownMethod reads an active payment method attached to the account.
func ownMethod(ctx context.Context, w *op.W, id, accountID uuid.UUID, param string) (*models.PaymentMethod, error) {
	pm := new(models.PaymentMethod)
	if err := w.Tx.Select(pm).Where("pm.id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.FieldError(param, "is not a payment method of this merchant and mode")
		}
		return nil, err
	}
	if pm.AccountID == nil || *pm.AccountID != accountID {
		return nil, apierr.FieldError(param, "does not belong to the account account_id")
	}
	if pm.Status != models.PaymentMethodActive {
		return nil, apierr.FieldError(param, "is "+string(pm.Status)+" and cannot be used")
	}
	return pm, nil
}

// payoutJournal is the movement of a payout priced q: the merchant's
// balance pays what leaves (the amount, plus the fees unless deducted
// from the recipient), the network is owed what the recipient receives,
// and the fees are earned.
//
//	debit  merchant         gross_amount (+ the fees under absorb)
//	credit payout_clearing  net_amount
//	credit platform_fees    platform_fee
//	credit frame_fees       frame_fee
func payoutJournal(t *models.Transfer, merchantPays int64, q fees.Quote) *ledger.Journal {
	c := t.Currency
	return &ledger.Journal{ID: ids.New(t.Updated.Time), Kind: string(models.JournalPayoutSend), RefType: RefTransfer, RefID: t.ID,
		Entries: []ledger.Entry{
			ledger.Debit(PartyMerchant, c, merchantPays),
			ledger.Credit(PartyPayoutClearing, c, q.NetAmount),
			ledger.Credit(PartyPlatformFees, c, q.PlatformFee),
			ledger.Credit(PartyFrameFees, c, q.FrameFee),
		}}
}
