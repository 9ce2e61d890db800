package money

import (
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Refunds is the refund family of the area: reads from the kit, and
// Create (refund_create.go).
type Refunds struct {
	op.Reader[models.Refund, RefundFilter]
	// OfCharges and OfTransfers read the newest RecentChildren refunds of
	// a batch of charges or transfers in one statement (Charge.refunds,
	// Transfer.refunds).
	OfCharges, OfTransfers op.Batch[[]*models.Refund]
	svc                    *Service
}

var refundTable = &op.Table[models.Refund]{Resource: "refund"}

func newRefunds(s *Service) *Refunds {
	r := &Refunds{Reader: op.Read[models.Refund, RefundFilter](s.Kit, refundTable), svc: s}
	r.OfCharges, r.OfTransfers = recentOfChargesAndTransfers(s.Kit, refundTable)
	return r
}

// RefundFilter filters the refund list: by the transfer or the charge
// intent refunded (mutually exclusive), or by the charge.
type RefundFilter struct {
	Transfer     *string `query:"transfer" filter:"transfer_id,id"`
	ChargeIntent *string `query:"charge_intent" filter:"charge_intent_id,id"`
	Charge       *string `query:"charge" filter:"charge_id,id"`
}

// Check refuses the transfer and the charge intent together.
func (f RefundFilter) Check(fields *apierr.Fields) {
	if f.Transfer != nil && f.ChargeIntent != nil {
		fields.Add("charge_intent", "is not accepted with transfer")
	}
}
