package testenv

import "github.com/frame-oss/payments-server/models"

// PayoutTransferSpec describes a payout transfer (POST /v1/transfers with a
// destination): amount sent to paymentMethodID, which belongs to
// AccountID. A payout is not a charge, so it has a spec of its own rather
// than a ChargeSpec with a destination.
type PayoutTransferSpec struct {
	AccountID       string
	PaymentMethodID string
	Amount          int64
}

// PayoutTransfer is a payout of amount to paymentMethodID, which belongs
// to accountID (an account able to receive it).
func PayoutTransfer(accountID, paymentMethodID string, amount int64) PayoutTransferSpec {
	return PayoutTransferSpec{AccountID: accountID, PaymentMethodID: paymentMethodID, Amount: amount}
}

// RESTBody renders s as a POST /v1/transfers body.
func (s PayoutTransferSpec) RESTBody() map[string]any {
	out := fields{"account_id": s.AccountID, "destination_payment_method_id": s.PaymentMethodID}.set()
	out["amount"] = s.Amount
	return out
}

// CreatePayoutTransfer creates spec's payout transfer over REST; anything
// but 201 fails the test.
func (c *Client) CreatePayoutTransfer(spec PayoutTransferSpec) *models.Transfer {
	c.env.T.Helper()
	return c.CreateTransferRaw(spec.RESTBody())
}
