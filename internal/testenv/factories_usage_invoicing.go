package testenv

import (
	"github.com/frame-oss/payments-server/models"
)

// BillingCreditSpec describes a credit pool: units of a product's usage
// for one payer, until Expires.
type BillingCreditSpec struct {
	Product string
	// Customer or Account is the payer (exactly one).
	Customer, Account string
	Credits           int64
	// Expires is an ISO 8601 instant after the payer's time.
	Expires  string
	Limited  bool
	Metadata map[string]string
}

// BillingCredit is a pool of credits units of product for customer,
// expiring at expires (ISO 8601).
func BillingCredit(product, customer string, credits int64, expires string) BillingCreditSpec {
	return BillingCreditSpec{Product: product, Customer: customer, Credits: credits, Expires: expires}
}

// RESTBody renders s as a POST /v1/billing/billing_credit body.
func (s BillingCreditSpec) RESTBody() map[string]any {
	body := fields{"metadata": s.Metadata, "product": s.Product, "customer": s.Customer, "account": s.Account, "billing_credits": s.Credits,
		"expires": s.Expires, "limited": s.Limited}.set()
	return body
}

// CreateBillingCredit grants spec's pool over REST; anything but 201
// fails the test.
func (c *Client) CreateBillingCredit(spec BillingCreditSpec) *models.BillingCredit {
	c.env.T.Helper()
	return create[models.BillingCredit](c, "billing credit", "/v1/billing/billing_credit", spec.RESTBody())
}

// UsageInvoiceSpec describes a usage invoice of a payer's window.
type UsageInvoiceSpec struct {
	Customer, Account string
	// Start and End are ISO 8601 instants: the window [Start, End).
	Start, End       string
	CollectionMethod string
	Events           string
	NetTerms         int
}

// UsageInvoice is the invoice of customer's usage of [start, end),
// charged automatically.
func UsageInvoice(customer, start, end string) UsageInvoiceSpec {
	return UsageInvoiceSpec{Customer: customer, Start: start, End: end}
}

// RESTBody renders s as a POST /v1/billing/billing_invoice body.
func (s UsageInvoiceSpec) RESTBody() map[string]any {
	return fields{"customer": s.Customer, "account": s.Account, "start_date": s.Start, "end_date": s.End,
		"collection_method": s.CollectionMethod, "events": s.Events, "net_terms": s.NetTerms}.set()
}

// CreateUsageInvoice bills spec's window over REST; anything but 201
// fails the test.
func (c *Client) CreateUsageInvoice(spec UsageInvoiceSpec) *models.Invoice {
	c.env.T.Helper()
	return create[models.Invoice](c, "usage invoice", "/v1/billing/billing_invoice", spec.RESTBody())
}

// SetUsageThreshold sets customer's auto-charge threshold over REST;
// anything but 200 fails the test.
func (c *Client) SetUsageThreshold(customer string, cents int64) *models.ThresholdProgress {
	c.env.T.Helper()
	return post[models.ThresholdProgress](c, "set usage threshold", "/v1/billing/thresholds",
		map[string]any{"customer": customer, "threshold_amount_cents": cents}, 200)
}
