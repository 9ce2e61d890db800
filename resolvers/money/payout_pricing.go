package money

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// PayoutPrice is what the merchant's payout agreements make a payout of
// the billable event cost (docs/funding.md, "Fees").
type PayoutPrice struct {
	PlanID      uuid.UUID
	AgreementID uuid.UUID
	// Mode is the plan's fee application mode: deduct puts the fees on the
	// recipient, add_on and absorb on the merchant.
	Mode  fees.Mode
	Quote fees.Quote
}

// PricePayout prices a payout of amount (currency) of the billable event
// for the account with the agreement lookup every transfer makes (the
// account's active payout agreement before the merchant's, the latest
// effective first, the first whose plan prices the event). It answers nil
// when no agreement prices the event: such a payout carries no plan fee.
func PricePayout(ctx context.Context, t *store.Tenant, now time.Time, event string, accountID uuid.UUID,
	amount int64, currency string) (*PayoutPrice, error) {
	price, err := resolvePricing(ctx, t, now, models.CategoryPayout, event, &accountID, nil, "")
	if e := apierr.As(err); e != nil && e.Code == CodeNoBillingAgreement {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	q, err := price.quote(amount, currency)
	if err != nil {
		return nil, err
	}
	return &PayoutPrice{PlanID: price.plan.ID, AgreementID: price.agreement.ID,
		Mode: fees.Mode(price.plan.FeeApplicationMode), Quote: q}, nil
}
