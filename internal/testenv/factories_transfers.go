package testenv

import (
	"maps"
	"slices"

	"github.com/frame-oss/payments-server/models"
)

// ChargeSpec describes a charge transfer (POST /v1/transfers) of an
// account's payment method. Zero values are left out of the request.
type ChargeSpec struct {
	AccountID       string
	PaymentMethodID string
	Amount          int64
	// Unconfirmed creates the transfer without confirming it; by default
	// it is confirmed at creation, as most tests want a settled charge.
	Unconfirmed bool
	// AuthorizationMode is "manual" to authorise now and capture later.
	AuthorizationMode string
	TransferFeePlanID string
	Description       string
	Metadata          map[string]string
	PromotionCodes    []string
}

// Charge is a confirmed charge of amount to paymentMethodID, which belongs
// to accountID.
func Charge(accountID, paymentMethodID string, amount int64) ChargeSpec {
	return ChargeSpec{AccountID: accountID, PaymentMethodID: paymentMethodID, Amount: amount}
}

// RESTBody renders s as a POST /v1/transfers body. The result is a fresh
// map the caller may change.
func (s ChargeSpec) RESTBody() map[string]any {
	out := fields{"metadata": s.Metadata, "account_id": s.AccountID, "source_payment_method_id": s.PaymentMethodID,
		"authorization_mode": s.AuthorizationMode, "transfer_fee_plan_id": s.TransferFeePlanID,
		"description": s.Description}.set()
	out["amount"] = s.Amount
	out["confirm"] = !s.Unconfirmed
	if s.PromotionCodes != nil {
		out["promotion_codes"] = slices.Clone(s.PromotionCodes)
	}
	return out
}

// CreateTransfer creates spec's transfer over REST; anything but 201 fails
// the test.
func (c *Client) CreateTransfer(spec ChargeSpec) *models.Transfer {
	c.env.T.Helper()
	return c.CreateTransferRaw(spec.RESTBody())
}

// CreateTransferRaw is CreateTransfer for a body a ChargeSpec cannot say
// (a payout transfer, a member under test) that must still create one.
func (c *Client) CreateTransferRaw(body map[string]any) *models.Transfer {
	c.env.T.Helper()
	return create[models.Transfer](c, "transfer", "/v1/transfers", body)
}

// WithoutConfirm leaves the transfer to be confirmed later.
func (s ChargeSpec) WithoutConfirm() ChargeSpec {
	s.Unconfirmed = true
	return s
}

// WithAuthorizationMode sets how the charge is captured: "manual"
// authorises now and captures later, "automatic" captures at once.
func (s ChargeSpec) WithAuthorizationMode(mode string) ChargeSpec {
	s.AuthorizationMode = mode
	return s
}

// WithDescription sets the transfer's description.
func (s ChargeSpec) WithDescription(description string) ChargeSpec {
	s.Description = description
	return s
}

// WithMetadata sets the transfer's metadata.
func (s ChargeSpec) WithMetadata(m map[string]string) ChargeSpec {
	s.Metadata = maps.Clone(m)
	return s
}
