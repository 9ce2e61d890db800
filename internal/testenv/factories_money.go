package testenv

import "net/http"

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
func (c *Client) CreateFeePlan(mode string, items ...map[string]any) map[string]any {
	t := c.env.T
	t.Helper()
	r := c.Post("/v1/transfer_fee_plans", map[string]any{"name": "Plan " + mode, "fee_application_mode": mode, "items": items})
	if r.Status != http.StatusCreated {
		t.Fatalf("testenv: create fee plan: want 201, got %d: %s", r.Status, r.Body)
	}
	return r.JSON()
}

// CreateAgreement creates an active charge agreement for planID (for
// accountID when not empty); anything but 201 fails the test.
func (c *Client) CreateAgreement(planID, accountID string) map[string]any {
	t := c.env.T
	t.Helper()
	body := map[string]any{"transfer_fee_plan_id": planID, "category": "charge", "effective_date": "2020-01-01", "status": "active"}
	if accountID != "" {
		body["account_id"] = accountID
	}
	r := c.Post("/v1/transfer_billing_agreements", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("testenv: create agreement: want 201, got %d: %s", r.Status, r.Body)
	}
	return r.JSON()
}

// StandardPricing gives the merchant what `merchants create
// --with-default-fees` gives: a deduct plan pricing cards at 2.9 % + 30
// (and ACH at 0.8 %) under an active charge agreement. It returns the plan.
func (c *Client) StandardPricing() map[string]any {
	plan := c.CreateFeePlan("deduct", CardFeeItem(), ACHFeeItem())
	c.CreateAgreement(plan["id"].(string), "")
	return plan
}

// CreateAccountCard creates a card payment method of number attached to
// accountID; anything but 201 fails the test.
func (c *Client) CreateAccountCard(accountID, number string) map[string]any {
	t := c.env.T
	t.Helper()
	body := CardBody("", number)
	body["account"] = accountID
	r := c.Post("/v1/payment_methods", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("testenv: create account card: want 201, got %d: %s", r.Status, r.Body)
	}
	return r.JSON()
}
