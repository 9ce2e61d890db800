package testenv

import "github.com/frame-oss/payments-server/models"

// PhaseSpec describes a pricing phase of a product (POST
// /v1/products/{id}/phases) or of a subscription (POST
// /v1/subscriptions/{id}/phases): both take the same terms.
type PhaseSpec struct {
	Ordinal     int
	PricingType string // "static" or "relative"
	// AmountCents is the static price; it is sent for a static phase even
	// when 0 (a free trial).
	AmountCents int64
	// DiscountPercentage is the relative phase's discount ("12.5").
	DiscountPercentage string
	// PeriodCount is how many periods the phase lasts; 0 leaves it out,
	// which makes the phase indefinite.
	PeriodCount int
	Name        string
}

// StaticPhase is the phase at ordinal pricing each period at amountCents
// for periods periods (0: indefinitely).
func StaticPhase(ordinal int, amountCents int64, periods int) PhaseSpec {
	return PhaseSpec{Ordinal: ordinal, PricingType: "static", AmountCents: amountCents, PeriodCount: periods}
}

// RelativePhase is the phase at ordinal discounting the product's price by
// percentage for periods periods (0: indefinitely).
func RelativePhase(ordinal int, percentage string, periods int) PhaseSpec {
	return PhaseSpec{Ordinal: ordinal, PricingType: "relative", DiscountPercentage: percentage, PeriodCount: periods}
}

// RESTBody renders s as a POST /v1/products/{id}/phases or
// /v1/subscriptions/{id}/phases body.
func (s PhaseSpec) RESTBody() map[string]any {
	out := fields{"pricing_type": s.PricingType, "discount_percentage": s.DiscountPercentage,
		"period_count": s.PeriodCount, "name": s.Name}.set()
	out["ordinal"] = s.Ordinal
	if s.PricingType == "static" {
		out["amount_cents"] = s.AmountCents
	}
	return out
}

// CreatePhase creates spec's phase of productID over REST; anything but
// 201 fails the test.
func (c *Client) CreatePhase(productID string, spec PhaseSpec) *models.ProductPhase {
	c.env.T.Helper()
	return create[models.ProductPhase](c, "product phase", "/v1/products/"+productID+"/phases", spec.RESTBody())
}

// CreateSubscriptionPhase creates spec's phase of subscriptionID over
// REST; the phase takes the subscription's currency and interval. Anything
// but 201 fails the test.
func (c *Client) CreateSubscriptionPhase(subscriptionID string, spec PhaseSpec) *models.SubscriptionPhase {
	c.env.T.Helper()
	return create[models.SubscriptionPhase](c, "subscription phase",
		"/v1/subscriptions/"+subscriptionID+"/phases", spec.RESTBody())
}
