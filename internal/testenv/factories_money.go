package testenv

import "github.com/frame-oss/payments-server/models"

// CardFeeItem is a plan item pricing card charges at 2.9 % + 30.
func CardFeeItem() map[string]any {
	return map[string]any{"fee_type": "flat_plus_percentage", "amount_fixed_cents": 30,
		"amount_fixed_currency": "USD", "amount_percentage": "2.9", "billable_event_type": "transfer.charge.card"}
}

// ACHFeeItem is a plan item pricing ACH charges at 0.8 %.
func ACHFeeItem() map[string]any {
	return map[string]any{"fee_type": "percentage", "amount_percentage": "0.8", "billable_event_type": "transfer.charge.ach"}
}

// CreateFeePlan creates a transfer fee plan over REST; anything but 201
// fails the test.
func (c *Client) CreateFeePlan(mode string, items ...map[string]any) *models.TransferFeePlan {
	c.env.T.Helper()
	return create[models.TransferFeePlan](c, "fee plan", "/v1/transfer_fee_plans",
		map[string]any{"name": "Plan " + mode, "fee_application_mode": mode, "items": items})
}

// CreateAgreement creates an active charge agreement for planID (for
// accountID when not empty); anything but 201 fails the test.
func (c *Client) CreateAgreement(planID, accountID string) *models.BillingAgreement {
	c.env.T.Helper()
	return c.CreateBillingAgreement(ChargeAgreement(planID).ForAccount(accountID))
}

// StandardPricing gives the merchant what `merchants create
// --with-default-fees` gives: a deduct plan pricing cards at 2.9 % + 30
// (and ACH at 0.8 %) under an active charge agreement. It returns the plan.
func (c *Client) StandardPricing() *models.TransferFeePlan {
	c.env.T.Helper()
	plan := c.CreateFeePlan("deduct", CardFeeItem(), ACHFeeItem())
	c.CreateAgreement(plan.ID.String(), "")
	return plan
}

// CreateAccountCard creates a card payment method of number attached to
// accountID; anything but 201 fails the test.
func (c *Client) CreateAccountCard(accountID, number string) *models.PaymentMethod {
	c.env.T.Helper()
	body := CardBody("", number)
	body["account"] = accountID
	return create[models.PaymentMethod](c, "account card", "/v1/payment_methods", body)
}
