package seed

import "github.com/frame-oss/payments-server/models"

// pricingPlan prices everything the data set moves, in the deduct mode of
// the default fees (cards 2.9 % + 30, as `merchants create
// --with-default-fees`), with ACH charges and both kinds of payouts
// besides.
const pricingPlan = `{"name": "Sample data fees", "fee_application_mode": "deduct", "items": [
  {"fee_type": "flat_plus_percentage", "amount_fixed_cents": 30, "amount_fixed_currency": "USD",
   "amount_percentage": "2.9", "billable_event_type": "transfer.charge.card"},
  {"fee_type": "percentage", "amount_percentage": "0.8", "billable_event_type": "transfer.charge.ach"},
  {"fee_type": "percentage", "amount_percentage": "1", "billable_event_type": "transfer.payout.push_to_card"},
  {"fee_type": "flat", "amount_fixed_cents": 25, "amount_fixed_currency": "USD",
   "billable_event_type": "transfer.payout.ach"}]}`

// agreementsEffective is when the seed's agreements take effect: before
// the billing clock starts, so they price the invoices it bills.
const agreementsEffective = "2020-01-01"

// pricing creates the seed's fee plan and a merchant-wide active charge
// agreement for it. The seed's transfers name the plan; the agreement
// prices what names none, the subscription invoices. It is the oldest
// agreement a merchant can have in effect, so an agreement of the
// merchant's own that is in effect is preferred to it.
func (s *seeder) pricing() error {
	plan, err := s.svc.Money.FeePlans.Create(s.ctx, body[models.CreateFeePlanInput](pricingPlan))
	if err != nil {
		return err
	}
	s.planID = plan.ID.String()
	_, err = s.svc.Money.Agreements.Create(s.ctx, body[models.CreateAgreementInput](
		`{"transfer_fee_plan_id": "PLAN", "category": "charge", "effective_date": "DATE", "status": "active"}`,
		"PLAN", s.planID, "DATE", agreementsEffective))
	return err
}
