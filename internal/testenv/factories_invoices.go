package testenv

import (
	"net/http"
	"slices"

	"github.com/frame-oss/payments-server/models"
)

// InvoiceSpec describes a one-off invoice (POST /v1/invoices) of a
// customer or an account. Zero values are left out of the request, so the
// server's defaults (usd, its net terms, the due date they give) apply
// unless a test names another.
type InvoiceSpec struct {
	// CustomerID or AccountID is the payer (exactly one).
	CustomerID, AccountID string
	// CollectionMethod is "request_payment" or "charge_automatically",
	// as REST spells it.
	CollectionMethod  string
	Currency, DueDate string
	Description, Memo string
	NetTerms          int
	LineItems         []InvoiceLineSpec
	Metadata          map[string]string
}

// InvoiceLineSpec is a line billing quantity of a product at its price.
type InvoiceLineSpec struct {
	ProductID string
	Quantity  int
}

// Invoice is a draft invoice of customerID billing quantity of productID,
// collected by method.
func Invoice(customerID, method, productID string, quantity int) InvoiceSpec {
	return InvoiceSpec{CustomerID: customerID, CollectionMethod: method,
		LineItems: []InvoiceLineSpec{{ProductID: productID, Quantity: quantity}}}
}

// WithNetTerms gives the payer n days after issue to pay.
func (s InvoiceSpec) WithNetTerms(n int) InvoiceSpec {
	s.NetTerms = n
	return s
}

// WithLineItem adds a line billing quantity of productID after the
// spec's lines, for an invoice of several lines.
func (s InvoiceSpec) WithLineItem(productID string, quantity int) InvoiceSpec {
	s.LineItems = append(slices.Clone(s.LineItems), InvoiceLineSpec{ProductID: productID, Quantity: quantity})
	return s
}

// ForAccount bills accountID instead of the customer.
func (s InvoiceSpec) ForAccount(accountID string) InvoiceSpec {
	s.CustomerID, s.AccountID = "", accountID
	return s
}

// RESTBody renders s as a POST /v1/invoices body.
func (s InvoiceSpec) RESTBody() map[string]any { return s.render(rest) }

// GraphQLInput renders s as a CreateInvoiceInput variable.
func (s InvoiceSpec) GraphQLInput() map[string]any { return s.render(graphQL) }

func (s InvoiceSpec) render(t transport) map[string]any {
	out := fields{"metadata": s.Metadata, "customer": s.CustomerID, "account": s.AccountID,
		t.name("collection_method", "collectionMethod"): t.enum(s.CollectionMethod),
		"currency": s.Currency, t.name("due_date", "dueDate"): s.DueDate, "description": s.Description,
		"memo": s.Memo, t.name("net_terms", "netTerms"): s.NetTerms}.set()
	if s.LineItems != nil {
		lines := make([]any, 0, len(s.LineItems))
		for _, l := range s.LineItems {
			lines = append(lines, map[string]any{"product": l.ProductID, "quantity": l.Quantity})
		}
		out[t.name("line_items", "lineItems")] = lines
	}
	return out
}

// CreateInvoice creates spec's draft invoice over REST; anything but 201
// fails the test.
func (c *Client) CreateInvoice(spec InvoiceSpec) *models.Invoice {
	c.env.T.Helper()
	return create[models.Invoice](c, "invoice", "/v1/invoices", spec.RESTBody())
}

// InvoiceAction posts action ("issue", "pay", "void",
// "mark_uncollectible") on invoiceID with body (nil for none) and returns
// the invoice as it answers; anything but 200 fails the test.
func (c *Client) InvoiceAction(invoiceID, action string, body any) *models.Invoice {
	c.env.T.Helper()
	return post[models.Invoice](c, action+" invoice", "/v1/invoices/"+invoiceID+"/"+action, body, http.StatusOK)
}

// IssueInvoice issues the draft invoiceID; anything but 200 fails the test.
func (c *Client) IssueInvoice(invoiceID string) *models.Invoice {
	c.env.T.Helper()
	return c.InvoiceAction(invoiceID, "issue", nil)
}

// InvoicePayer is what most invoice tests start from: a customer, the card
// it pays with (nil when created without one) and a product priced 1500
// to bill it.
type InvoicePayer struct {
	Customer *models.Customer
	Card     *models.PaymentMethod
	Product  *models.Product
}

// CreateInvoicePayer creates a customer with a card of cardNumber ("" for
// none) and a product priced 1500.
func (c *Client) CreateInvoicePayer(cardNumber string) InvoicePayer {
	c.env.T.Helper()
	product := Product()
	product.DefaultPrice = 1500
	p := InvoicePayer{Customer: c.CreateCustomer(Customer()), Product: c.CreateProduct(product)}
	if cardNumber != "" {
		p.Card = c.CreateCard(p.Customer.ID.String(), cardNumber)
	}
	return p
}

// Invoice is a draft invoice of the payer's customer billing quantity of
// its product, collected by method.
func (p InvoicePayer) Invoice(method string, quantity int) InvoiceSpec {
	return Invoice(p.Customer.ID.String(), method, p.Product.ID.String(), quantity)
}
