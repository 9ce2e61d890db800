package money

import (
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Disputes is the dispute family of the area: reads from the kit, and
// Update (dispute_update.go) and Open (dispute_open.go); the issuer's
// decision is a job (dispute_decide.go).
type Disputes struct {
	op.Reader[models.Dispute, DisputeFilter]
	// OfCharges and OfTransfers read the disputes of a batch of charges or
	// transfers in one statement (Charge.disputes, Transfer.disputes).
	OfCharges, OfTransfers op.Batch[[]*models.Dispute]
	svc                    *Service
}

var disputeTable = &op.Table[models.Dispute]{Resource: "dispute",
	Derive: func(d *models.Dispute, _ time.Time) { d.Derive() }}

func newDisputes(s *Service) *Disputes {
	d := &Disputes{Reader: op.Read[models.Dispute, DisputeFilter](s.Kit, disputeTable), svc: s}
	d.OfCharges, d.OfTransfers = recentOfChargesAndTransfers(s.Kit, disputeTable)
	return d
}

// DisputeFilter filters the dispute list by charge, charge intent and
// transfer.
type DisputeFilter struct {
	Charge       *string `query:"charge" filter:"charge_id,id"`
	ChargeIntent *string `query:"charge_intent" filter:"charge_intent_id,id"`
	Transfer     *string `query:"transfer" filter:"transfer_id,id"`
}
