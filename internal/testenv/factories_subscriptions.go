package testenv

import (
	"github.com/frame-oss/payments-server/models"
)

// SubscriptionSpec describes a subscription (POST /v1/subscriptions) of a
// customer or an account to a recurring product. Zero values are left out
// of the request, so the server's defaults (the payer's default payment
// method, create_prorations) apply unless a test names another.
type SubscriptionSpec struct {
	// CustomerID or AccountID is the payer (exactly one).
	CustomerID, AccountID  string
	ProductID              string
	Currency               string
	DefaultPaymentMethodID string
	// ProrationBehavior is "create_prorations", "always_invoice" or
	// "none", as REST spells it.
	ProrationBehavior string
	Description       string
	Metadata          map[string]string
}

// Subscription is a USD subscription of customerID to productID.
func Subscription(customerID, productID string) SubscriptionSpec {
	return SubscriptionSpec{CustomerID: customerID, ProductID: productID, Currency: "usd"}
}

// AccountSubscription is a USD subscription of accountID (billed to the
// account's own payment method) to productID.
func AccountSubscription(accountID, productID string) SubscriptionSpec {
	return SubscriptionSpec{AccountID: accountID, ProductID: productID, Currency: "usd"}
}

// WithProrationBehavior sets how a later product swap is billed.
func (s SubscriptionSpec) WithProrationBehavior(b string) SubscriptionSpec {
	s.ProrationBehavior = b
	return s
}

// WithProduct subscribes to productID instead.
func (s SubscriptionSpec) WithProduct(productID string) SubscriptionSpec {
	s.ProductID = productID
	return s
}

// RESTBody renders s as a POST /v1/subscriptions body.
func (s SubscriptionSpec) RESTBody() map[string]any { return s.render(rest) }

// GraphQLInput renders s as a CreateSubscriptionInput variable.
func (s SubscriptionSpec) GraphQLInput() map[string]any { return s.render(graphQL) }

func (s SubscriptionSpec) render(t transport) map[string]any {
	return fields{"metadata": s.Metadata, "customer": s.CustomerID, "account": s.AccountID, "product": s.ProductID,
		"currency": s.Currency, "description": s.Description,
		t.name("default_payment_method", "defaultPaymentMethod"): s.DefaultPaymentMethodID,
		t.name("proration_behavior", "prorationBehavior"):        t.enum(s.ProrationBehavior)}.set()
}

// CreateSubscription creates spec's subscription over REST; anything but
// 201 fails the test. A declined first payment still creates it
// (incomplete), so a test of dunning can start from this.
func (c *Client) CreateSubscription(spec SubscriptionSpec) *models.Subscription {
	c.env.T.Helper()
	return create[models.Subscription](c, "subscription", "/v1/subscriptions", spec.RESTBody())
}

// RecurringProduct is Product priced price every interval ("monthly",
// "yearly").
func RecurringProduct(price int64, interval string) ProductSpec {
	p := Product()
	p.DefaultPrice, p.RecurringInterval = price, interval
	return p
}

// Subscriber is what most subscription tests start from: a customer, the
// card it pays with (nil when created without one) and a monthly product
// priced 2000.
type Subscriber struct {
	Customer *models.Customer
	Card     *models.PaymentMethod
	Product  *models.Product
}

// CreateSubscriber creates a customer with a card of cardNumber ("" for
// none) and a monthly product priced 2000.
func (c *Client) CreateSubscriber(cardNumber string) Subscriber {
	c.env.T.Helper()
	s := Subscriber{Customer: c.CreateCustomer(Customer()), Product: c.CreateProduct(RecurringProduct(2000, "monthly"))}
	if cardNumber != "" {
		s.Card = c.CreateCard(s.Customer.ID.String(), cardNumber)
	}
	return s
}

// Subscription is the subscriber's customer subscribing to its product,
// paid with the customer's default payment method.
func (s Subscriber) Subscription() SubscriptionSpec {
	return Subscription(s.Customer.ID.String(), s.Product.ID.String())
}
