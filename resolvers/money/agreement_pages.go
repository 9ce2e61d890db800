package money

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfFeePlans reads one page of the billing agreements binding each of
// many fee plans in one statement (TransferFeePlan.billingAgreements),
// newest first, as the agreement list reads them (it takes no filter).
func (as *Agreements) PagesOfFeePlans(ctx context.Context, planIDs []string,
	first *int, after *string) ([]op.Page[*models.BillingAgreement], []error) {
	return agreementTable.PagesOf(ctx, as.Kit, "fee_plan_id", "transfer_fee_plan", planIDs, nil, first, after)
}
