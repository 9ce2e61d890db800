package money

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// CodeNoBillingAgreement is the 422 of a transfer no plan can price.
const CodeNoBillingAgreement = "billing_agreement_not_found"

// serviceFee is the service's own processing fee (frame_fee). A
// self-hosted server is its own service: it charges nothing on top of the
// merchant's plan, so frame_fee is 0 and total_fees = platform_fee. The
// arithmetic takes it as an item, so a schedule is a one-line change.
var serviceFee *fees.Item

// pricing is what prices one transfer: the plan, the agreement that chose
// it (nil for an explicit plan) and the plan's item for the event.
type pricing struct {
	plan      *models.TransferFeePlan
	agreement *models.BillingAgreement
	item      *models.FeePlanItem
}

// feeSource is the transfer's fee_source.
func (p *pricing) feeSource() models.FeeSource {
	if p.agreement == nil {
		return models.FeeSourceOverride
	}
	return models.FeeSourceAgreement
}

// CodeAmountTooSmall is the 422 of an amount a deduct plan's fees would
// exceed.
const CodeAmountTooSmall = "amount_too_small"

// quote prices amount in currency. A fixed part in another currency than
// the transfer's cannot be applied: 422 fee_currency_mismatch. Fees a
// deduct plan would take beyond the amount: 422 amount_too_small.
func (p *pricing) quote(amount int64, currency string) (fees.Quote, error) {
	item := p.item.Fee()
	if item.FixedCents > 0 && p.item.AmountFixedCurrency != currency {
		return fees.Quote{}, apierr.Rule("fee_currency_mismatch", "The fee plan's fixed fee is in "+
			p.item.AmountFixedCurrency+" and cannot price a "+currency+" transfer", "currency", nil)
	}
	q, err := fees.Compute(amount, fees.Mode(p.plan.FeeApplicationMode), &item, serviceFee)
	if errors.Is(err, fees.ErrFeesExceedAmount) {
		return q, apierr.Rule(CodeAmountTooSmall, "The amount does not cover the transfer's fees", "amount", nil)
	}
	return q, err
}

// resolvePricing finds what prices a transfer (or a charge intent) of the
// billable event for the account: an explicit plan (transfer_fee_plan_id)
// or else the applicable active agreement of the category — an agreement
// of the account before the merchant's own, the latest effective first
// (among those already in effect at now), the first whose plan prices the
// event. Without an account (a charge intent a customer pays) only the
// merchant's own agreements apply. None: 422 with the documented message
// (API-DECISIONS §4).
func resolvePricing(ctx context.Context, t *store.Tenant, now time.Time, category, event string,
	accountID *uuid.UUID, planID *uuid.UUID, planParam string) (*pricing, error) {
	noAgreement := apierr.Rule(CodeNoBillingAgreement,
		"No active "+category+" billing agreement found for this account or merchant.", "", nil)
	if planID != nil {
		plan, err := feePlanIn(ctx, t, *planID)
		if err != nil {
			return nil, apierr.FieldError(planParam, "is not a transfer fee plan of this merchant and mode")
		}
		item := plan.ItemFor(event)
		if item == nil {
			return nil, noAgreement
		}
		return &pricing{plan: plan, item: item}, nil
	}
	var candidates []*models.BillingAgreement
	q := agreementTable.Select(t, nil, &candidates).
		Where("ba.status = ?", models.AgreementActive).Where("ba.category = ?", category).
		Where("ba.effective_date <= ?", now)
	if accountID != nil {
		q = q.Where("(ba.account_id = ? OR ba.account_id IS NULL)", *accountID)
	} else {
		q = q.Where("ba.account_id IS NULL")
	}
	err := q.OrderExpr("ba.account_id IS NULL, ba.effective_date DESC, ba.created DESC, ba.id DESC").
		Limit(50).Scan(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range candidates {
		if item := a.FeePlan.ItemFor(event); item != nil {
			return &pricing{plan: a.FeePlan, agreement: a, item: item}, nil
		}
	}
	return nil, noAgreement
}
