package funding

import (
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Payouts is the payout family of the area: reads from the kit,
// PagesOfAccounts (payout_pages.go), and Create (payout_create.go).
type Payouts struct {
	op.Reader[models.Payout, PayoutFilter]
	svc *Service
}

var payoutTable = &op.Table[models.Payout]{Resource: "payout", Allow: secretOnly,
	Derive: func(p *models.Payout, _ time.Time) { p.Derive() }}

func newPayouts(s *Service) *Payouts {
	return &Payouts{Reader: op.Read[models.Payout, PayoutFilter](s.Kit, payoutTable), svc: s}
}

// PayoutFilter filters the payout list: by status or by account.
type PayoutFilter struct {
	Status    *models.PayoutStatus `query:"status" filter:"status,enum"`
	AccountID *string              `query:"account_id" filter:"account_id,id"`
}
