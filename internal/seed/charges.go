package seed

import (
	"strconv"

	"github.com/frame-oss/payments-server/models"
)

// charge is one transfer the data set charges to the payee's own test
// card, and what follows it.
type charge struct {
	card        string
	amount      int64
	description string
	then        func(s *seeder, t *models.Transfer) error
}

// charges are the transfers, in order: plain successes, a partial and a
// full refund, a refund the card makes fail, the dispute test card
// (a dispute waiting for the merchant's response), a dispute the merchant
// wins, and a decline.
var charges = []charge{
	{card: cardVisa, amount: 2500, description: "Order #1001"},
	{card: cardMastercard, amount: 4000, description: "Order #1002", then: refund(1000)},
	{card: cardAmex, amount: 7500, description: "Order #1003", then: refund(7500)},
	{card: cardRefundsFail, amount: 2000, description: "Order #1004", then: refund(2000)},
	{card: cardDisputed, amount: 5000, description: "Order #1005"},
	{card: cardVisa, amount: 3000, description: "Order #1006", then: (*seeder).disputeAndWin},
	{card: cardInsufficient, amount: 1500, description: "Order #1007"},
}

func (s *seeder) charges() error {
	for _, c := range charges {
		t, err := s.svc.Money.Transfers.Create(s.ctx, body[models.CreateTransferInput](
			`{"amount": AMOUNT, "currency": "USD", "account_id": "ACCOUNT", "source_payment_method_id": "CARD",
			  "transfer_fee_plan_id": "PLAN", "description": "DESCRIPTION", "confirm": true}`,
			"AMOUNT", strconv.FormatInt(c.amount, 10), "ACCOUNT", s.payee, "CARD", s.cards[c.card],
			"PLAN", s.planID, "DESCRIPTION", c.description))
		if err != nil {
			return err
		}
		s.sum.Transfers++
		if c.card == cardDisputed {
			s.sum.Disputes++ // opened by its capture
		}
		if c.then != nil {
			if err := c.then(s, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// refund refunds amount of a transfer.
func refund(amount int64) func(s *seeder, t *models.Transfer) error {
	return func(s *seeder, t *models.Transfer) error {
		_, err := s.svc.Money.Refunds.Create(s.ctx, body[models.CreateRefundInput](
			`{"transfer": "TRANSFER", "amount": AMOUNT, "reason": "requested_by_customer"}`,
			"TRANSFER", t.ID.String(), "AMOUNT", strconv.FormatInt(amount, 10)))
		if err == nil {
			s.sum.Refunds++
		}
		return err
	}
}

// disputeAndWin has the cardholder's bank dispute the transfer's charge
// (the sandbox's test helper), submits the evidence that wins, and has
// the sandbox issuer decide at once, through the operation its background
// job calls (the job then finds the dispute decided).
func (s *seeder) disputeAndWin(t *models.Transfer) error {
	d, err := s.svc.Money.Disputes.Open(s.ctx, t.LatestCharge.String(),
		body[models.OpenDisputeInput](`{"reason": "product_not_received"}`))
	if err != nil {
		return err
	}
	s.sum.Disputes++
	if _, err := s.svc.Money.Disputes.Update(s.ctx, d.ID.String(), body[models.UpdateDisputeInput](
		`{"evidence": {"uncategorized_text": "winning_evidence", "product_description": "Annual plan"}, "submit": true}`)); err != nil {
		return err
	}
	return s.svc.Money.DecideDispute(s.ctx, s.scope, d.ID)
}
