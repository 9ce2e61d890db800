package testenv

import "github.com/frame-oss/payments-server/models"

// RefundSpec describes a refund of a transfer or of a charge intent's
// charge. A zero Amount refunds what remains.
type RefundSpec struct {
	TransferID     string
	ChargeIntentID string
	Amount         int64
	Reason         string
}

// RefundOfTransfer refunds what remains of transferID.
func RefundOfTransfer(transferID string) RefundSpec { return RefundSpec{TransferID: transferID} }

// RefundOfChargeIntent refunds what remains of chargeIntentID's charge.
func RefundOfChargeIntent(chargeIntentID string) RefundSpec {
	return RefundSpec{ChargeIntentID: chargeIntentID}
}

// WithAmount refunds amount only, leaving the rest refundable.
func (s RefundSpec) WithAmount(amount int64) RefundSpec {
	s.Amount = amount
	return s
}

// RESTBody renders s as a POST /v1/refunds body.
func (s RefundSpec) RESTBody() map[string]any {
	out := fields{"transfer": s.TransferID, "charge_intent": s.ChargeIntentID, "reason": s.Reason}.set()
	if s.Amount != 0 {
		out["amount"] = s.Amount
	}
	return out
}

// CreateRefund creates spec's refund over REST; anything but 201 fails the
// test.
func (c *Client) CreateRefund(spec RefundSpec) *models.Refund {
	c.env.T.Helper()
	return create[models.Refund](c, "refund", "/v1/refunds", spec.RESTBody())
}
