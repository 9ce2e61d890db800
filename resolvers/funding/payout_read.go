package funding

import (
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// RecentPayouts is how many payouts Account.payouts shows per account,
// newest first (the payouts query pages through all of them).
const RecentPayouts = 100

// Payouts is the payout family of the area: reads from the kit, and
// Create (payout_create.go).
type Payouts struct {
	op.Reader[models.Payout, PayoutFilter]
	// OfAccounts reads the newest RecentPayouts payouts of a batch of
	// accounts in one statement (Account.payouts).
	OfAccounts op.Batch[[]*models.Payout]
	svc        *Service
}

var payoutTable = &op.Table[models.Payout]{Resource: "payout", Allow: secretOnly,
	Derive: func(p *models.Payout, _ time.Time) { p.Derive() }}

func newPayouts(s *Service) *Payouts {
	return &Payouts{Reader: op.Read[models.Payout, PayoutFilter](s.Kit, payoutTable),
		OfAccounts: (&op.Children[models.Payout]{Table: payoutTable, Parent: "account", Column: "account_id", Limit: RecentPayouts}).Bind(s.Kit),
		svc:        s}
}

// PayoutFilter filters the payout list: by status or by account.
type PayoutFilter struct {
	Status    *string `query:"status" filter:"status,enum=pending|succeeded|failed"`
	AccountID *string `query:"account_id" filter:"account_id,id"`
}
