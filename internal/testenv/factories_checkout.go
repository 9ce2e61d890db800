package testenv

import "github.com/frame-oss/payments-server/models"

// CheckoutSessionSpec describes a checkout session (POST
// /v1/checkout_sessions): what a browser may then charge an account.
type CheckoutSessionSpec struct {
	AccountID         string
	Amount            int64
	Currency          string
	AuthorizationMode string // "automatic" or "manual"
}

// CheckoutSession is a USD session charging amount to accountID, captured
// automatically.
func CheckoutSession(accountID string, amount int64) CheckoutSessionSpec {
	return CheckoutSessionSpec{AccountID: accountID, Amount: amount, Currency: "USD", AuthorizationMode: "automatic"}
}

// RESTBody renders s as a POST /v1/checkout_sessions body.
func (s CheckoutSessionSpec) RESTBody() map[string]any {
	out := fields{"account_id": s.AccountID, "authorization_mode": s.AuthorizationMode}.set()
	out["amount"] = fields{"value": s.Amount, "currency": s.Currency}.set()
	return out
}

// CreateCheckoutSession creates spec's session over REST; anything but 201
// fails the test. The session's ClientSecret is the browser's credential
// (Env.Client(*s.ClientSecret)).
func (c *Client) CreateCheckoutSession(spec CheckoutSessionSpec) *models.CheckoutSession {
	c.env.T.Helper()
	return create[models.CheckoutSession](c, "checkout session", "/v1/checkout_sessions", spec.RESTBody())
}
