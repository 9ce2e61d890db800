package testenv

import (
	"github.com/frame-oss/payments-server/models"
)

// Sandbox ACH test account numbers take the routing number TestRouting.
const (
	TestRouting = "110000000"
	// ACHSucceeds is the account number whose debits and credits settle.
	ACHSucceeds = "000123456789"
)

// ACHSpec describes a bank (ACH) payment method of an account.
type ACHSpec struct {
	AccountID     string
	RoutingNumber string
	AccountNumber string
	AccountType   string // "checking" or "savings"
}

// ACH is a checking account of number (a sandbox test number) attached to
// accountID.
func ACH(accountID, number string) ACHSpec {
	return ACHSpec{AccountID: accountID, RoutingNumber: TestRouting, AccountNumber: number, AccountType: "checking"}
}

// RESTBody renders s as a POST /v1/payment_methods body.
func (s ACHSpec) RESTBody() map[string]any {
	out := fields{"account": s.AccountID, "routing_number": s.RoutingNumber, "account_number": s.AccountNumber,
		"account_type": s.AccountType}.set()
	out["type"] = "ach"
	return out
}

// CreateACH creates spec's bank payment method over REST; anything but 201
// fails the test.
func (c *Client) CreateACH(spec ACHSpec) *models.PaymentMethod {
	c.env.T.Helper()
	return create[models.PaymentMethod](c, "ACH payment method", "/v1/payment_methods", spec.RESTBody())
}

// PayoutSpec describes a payout (POST /v1/payouts) to a payment method.
type PayoutSpec struct {
	PaymentMethodID string
	Amount          int64
	Currency        string
	Speed           string // "instant" or "standard"; empty lets the server choose
	Metadata        map[string]string
}

// Payout is a USD payout of amount to paymentMethodID.
func Payout(paymentMethodID string, amount int64) PayoutSpec {
	return PayoutSpec{PaymentMethodID: paymentMethodID, Amount: amount, Currency: "USD"}
}

// RESTBody renders s as a POST /v1/payouts body.
func (s PayoutSpec) RESTBody() map[string]any {
	out := fields{"metadata": s.Metadata, "payment_method": s.PaymentMethodID, "currency": s.Currency, "speed": s.Speed}.set()
	out["amount"] = s.Amount
	return out
}

// CreatePayout creates spec's payout over REST; anything but 201 fails the
// test.
func (c *Client) CreatePayout(spec PayoutSpec) *models.Payout {
	c.env.T.Helper()
	return create[models.Payout](c, "payout", "/v1/payouts", spec.RESTBody())
}

// TopUp funds the merchant's instant-payout balance with amount (POST
// /v1/payout_funding/top_ups) and returns the funding entry; anything but
// 201 fails the test.
func (c *Client) TopUp(amount int64) *models.FundingEntry {
	c.env.T.Helper()
	return create[models.FundingEntry](c, "top-up", "/v1/payout_funding/top_ups", map[string]any{"amount": amount})
}

// FundingScheduleSpec describes a payout funding schedule.
type FundingScheduleSpec struct {
	Amount  int64
	Cadence string // "daily", "weekly" or "monthly"
	// Disabled creates the schedule switched off.
	Disabled bool
}

// FundingSchedule is an enabled schedule topping up amount every cadence.
func FundingSchedule(amount int64, cadence string) FundingScheduleSpec {
	return FundingScheduleSpec{Amount: amount, Cadence: cadence}
}

// RESTBody renders s as a POST /v1/payout_funding/schedules body.
func (s FundingScheduleSpec) RESTBody() map[string]any {
	out := fields{"cadence": s.Cadence}.set()
	out["amount"] = s.Amount
	if s.Disabled {
		out["enabled"] = false
	}
	return out
}

// CreateFundingSchedule creates spec's schedule over REST; anything but
// 201 fails the test.
func (c *Client) CreateFundingSchedule(spec FundingScheduleSpec) *models.FundingSchedule {
	c.env.T.Helper()
	return create[models.FundingSchedule](c, "funding schedule", "/v1/payout_funding/schedules", spec.RESTBody())
}
