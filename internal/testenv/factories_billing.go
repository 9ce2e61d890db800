package testenv

import "github.com/frame-oss/payments-server/models"

// BillingAgreementSpec describes a transfer billing agreement: which fee
// plan prices which category of transfers, for the whole merchant or for
// one account.
type BillingAgreementSpec struct {
	PlanID string
	// Category is "charge" or "payout".
	Category      string
	EffectiveDate string // YYYY-MM-DD
	Status        string
	// AccountID, when set, scopes the agreement to that account.
	AccountID string
}

// ChargeAgreement is an active agreement pricing charges with planID,
// effective long before the test clock starts.
func ChargeAgreement(planID string) BillingAgreementSpec {
	return BillingAgreementSpec{PlanID: planID, Category: "charge", EffectiveDate: "2020-01-01", Status: "active"}
}

// PayoutAgreement is ChargeAgreement for payouts.
func PayoutAgreement(planID string) BillingAgreementSpec {
	s := ChargeAgreement(planID)
	s.Category = "payout"
	return s
}

// ForAccount scopes the agreement to accountID ("" keeps it merchant-wide).
func (s BillingAgreementSpec) ForAccount(accountID string) BillingAgreementSpec {
	s.AccountID = accountID
	return s
}

// WithStatus creates the agreement in status ("pending" to have several
// agreements of one category without any of them in force).
func (s BillingAgreementSpec) WithStatus(status string) BillingAgreementSpec {
	s.Status = status
	return s
}

// RESTBody renders s as a POST /v1/transfer_billing_agreements body.
func (s BillingAgreementSpec) RESTBody() map[string]any {
	return fields{"transfer_fee_plan_id": s.PlanID, "category": s.Category, "effective_date": s.EffectiveDate,
		"status": s.Status, "account_id": s.AccountID}.set()
}

// CreateBillingAgreement creates spec's agreement over REST; anything but
// 201 fails the test.
func (c *Client) CreateBillingAgreement(spec BillingAgreementSpec) *models.BillingAgreement {
	c.env.T.Helper()
	return create[models.BillingAgreement](c, "billing agreement", "/v1/transfer_billing_agreements", spec.RESTBody())
}

// PushToCardFeeItem is a plan item pricing push-to-card payouts at 1 %.
func PushToCardFeeItem() map[string]any {
	return map[string]any{"fee_type": "percentage", "amount_percentage": "1", "billable_event_type": "transfer.payout.push_to_card"}
}

// PayoutACHFeeItem is a plan item pricing ACH payouts at a flat 25.
func PayoutACHFeeItem() map[string]any {
	return map[string]any{"fee_type": "flat", "amount_fixed_cents": 25, "billable_event_type": "transfer.payout.ach"}
}

// PayoutPricing installs an active payout agreement of a plan in mode
// ("deduct", "add", ...) pricing push to card at 1 % and ACH at a flat 25.
// It returns the agreement, whose fee plan is expanded.
func (c *Client) PayoutPricing(mode string) *models.BillingAgreement {
	c.env.T.Helper()
	plan := c.CreateFeePlan(mode, PushToCardFeeItem(), PayoutACHFeeItem())
	return c.CreateBillingAgreement(PayoutAgreement(plan.ID.String()))
}
