package seed

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
)

// payouts funds the instant-payout balance and pays the payee out twice:
// to its debit card (succeeds) and to a card that declines (fails,
// nothing moves).
func (s *seeder) payouts() error {
	// The top-up's own idempotency key is fresh, so a second run funds
	// again.
	if _, err := s.svc.Funding.Entries.TopUp(s.ctx, body[models.CreateTopUpInput](
		`{"amount": 20000, "idempotency_key": "sample-data-KEY"}`, "KEY", uuid.NewString())); err != nil {
		return err
	}
	for _, p := range []struct {
		card   string
		amount string
	}{{cardVisaDebit, "10000"}, {cardGenericDecline, "2500"}} {
		if _, err := s.svc.Funding.Payouts.Create(s.ctx, body[models.CreatePayoutInput](
			`{"payment_method": "CARD", "amount": AMOUNT, "currency": "USD"}`, "CARD", s.cards[p.card], "AMOUNT", p.amount)); err != nil {
			return err
		}
		s.sum.Payouts++
	}
	return nil
}
