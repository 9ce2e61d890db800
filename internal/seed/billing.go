package seed

import (
	"strconv"
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The billing clock: it starts on 1 January 2026, the subscriptions'
// anchor, and ends three and a half months later, after three monthly
// renewals (docs/sandbox.md, "Sample data").
var (
	clockStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clockMid   = time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)
	clockEnd   = time.Date(2026, 4, 15, 0, 0, 0, 0, time.UTC)
)

// subscriber is a customer bound to the billing clock with a card and a
// subscription.
type subscriber struct {
	name, email, card, plan string
	// atMid is what happens to the subscription at clockMid.
	atMid func(s *seeder, customerID, subscriptionID string) error
}

// products are the recurring plans, by name: monthly prices in cents.
var products = []struct {
	name   string
	price  int64
	detail string
}{
	{"Starter", 2000, "For small teams"},
	{"Growth", 9900, "For growing businesses"},
}

// subscribers, in order: two that pay every month, one canceled at
// clockMid, and one whose card declines from clockMid on, so its April
// renewal is in dunning (past_due, retried 3 and 5 days later) when the
// clock stops.
var subscribers = []subscriber{
	{name: "Acme Corp", email: "billing@acme.example", card: cardVisa, plan: "Growth"},
	{name: "Globex", email: "billing@globex.example", card: cardMastercard, plan: "Starter"},
	{name: "Hooli", email: "billing@hooli.example", card: cardVisa, plan: "Starter", atMid: (*seeder).cancel},
	{name: "Initech", email: "billing@initech.example", card: cardVisa, plan: "Starter", atMid: (*seeder).decline},
}

func (s *seeder) billing() error {
	clock, err := s.svc.Billing.TestClocks.Create(s.ctx, body[models.CreateTestClockInput](
		`{"name": "Sample data billing", "frozen_time": AT}`, "AT", unix(clockStart)))
	if err != nil {
		return err
	}
	s.sum.TestClocks++
	clockID := clock.ID.String()
	plans := map[string]string{}
	for _, p := range products {
		prod, err := s.svc.Catalog.Products.Create(s.ctx, body[models.ProductInput](
			`{"name": "NAME", "description": "DETAIL", "default_price": PRICE, "purchase_type": "recurring",
			  "recurring_interval": "monthly"}`, "NAME", p.name, "DETAIL", p.detail, "PRICE", strconv.FormatInt(p.price, 10)))
		if err != nil {
			return err
		}
		s.sum.Products++
		plans[p.name] = prod.ID.String()
	}
	type subscribed struct{ customer, subscription string }
	subs := make([]subscribed, len(subscribers))
	for i, c := range subscribers {
		cu, err := s.svc.Catalog.Customers.Create(s.ctx, body[models.CreateCustomerInput](
			`{"name": "NAME", "email": "EMAIL", "test_clock": "CLOCK"}`, "NAME", c.name, "EMAIL", c.email, "CLOCK", clockID))
		if err != nil {
			return err
		}
		s.sum.Customers++
		if _, err := s.card("customer", cu.ID.String(), c.card); err != nil {
			return err
		}
		sub, err := s.svc.Billing.Subscriptions.Create(s.ctx, body[models.CreateSubscriptionInput](
			`{"customer": "CUSTOMER", "product": "PRODUCT", "currency": "usd"}`,
			"CUSTOMER", cu.ID.String(), "PRODUCT", plans[c.plan]))
		if err != nil {
			return err
		}
		s.sum.Subscriptions++
		subs[i] = subscribed{cu.ID.String(), sub.ID.String()}
	}
	if err := s.advance(clockID, clockMid); err != nil {
		return err
	}
	for i, c := range subscribers {
		if c.atMid != nil {
			if err := c.atMid(s, subs[i].customer, subs[i].subscription); err != nil {
				return err
			}
		}
	}
	if err := s.advance(clockID, clockEnd); err != nil {
		return err
	}
	for _, sub := range subs {
		page, err := s.svc.Billing.Invoices.List(s.ctx, invoices.InvoiceFilter{Subscription: &sub.subscription},
			op.ListParams{PageParams: models.PageParams{Page: 1, PerPage: 100}})
		if err != nil {
			return err
		}
		s.sum.Invoices += len(page.Items)
	}
	return nil
}

// advance moves the billing clock to at: every renewal, retry and overdue
// notice due on the way runs before it answers.
func (s *seeder) advance(clockID string, at time.Time) error {
	_, err := s.svc.Billing.TestClocks.Advance(s.ctx, clockID, body[models.AdvanceTestClockInput](
		`{"frozen_time": AT}`, "AT", unix(at)))
	return err
}

// cancel cancels a subscription at once (at its clock's time).
func (s *seeder) cancel(_, subscriptionID string) error {
	_, err := s.svc.Billing.Subscriptions.Cancel(s.ctx, subscriptionID)
	return err
}

// decline gives the customer a card that declines and makes it the
// subscription's payment method: its next renewal starts dunning.
func (s *seeder) decline(customerID, subscriptionID string) error {
	pm, err := s.card("customer", customerID, cardGenericDecline)
	if err != nil {
		return err
	}
	_, err = s.svc.Billing.Subscriptions.Update(s.ctx, subscriptionID, body[models.UpdateSubscriptionInput](
		`{"default_payment_method": "CARD"}`, "CARD", pm.ID.String()))
	return err
}

func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }
