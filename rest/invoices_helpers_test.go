package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// invoiceKeys are the members of an invoice (spec doc 2 §2.5, with the
// payer's ids, the charge that paid it and the state's times).
var invoiceKeys = sorted("id", "object", "invoice_number", "total", "amount", "currency", "status", "collection_method",
	"subscription_id", "billing_reason", "net_terms", "due_date", "description", "memo", "customer_id", "customer",
	"account_id", "account", "line_items", "charge", "attempt_count", "last_payment_error", "issued_at", "paid_at",
	"voided_at", "marked_uncollectible_at", "overdue_at", "metadata", "livemode", "created", "updated")

// lineItemKeys are the members of an invoice line item.
var lineItemKeys = sorted("id", "object", "invoice", "product", "description", "quantity", "unit_amount_cents",
	"unit_amount_currency", "unit_amount", "amount", "kind", "period_start", "period_end", "proportion", "livemode", "created", "updated")

// invoicePayer is a customer with a card, and a product to bill it.
type invoicePayer struct {
	customer string
	card     string
	product  string
}

// newInvoicePayer makes a customer with a card of number (none when
// empty) and a product priced 1500.
func newInvoicePayer(t *testing.T, c *testenv.Client, number string) invoicePayer {
	t.Helper()
	cu := c.CreateCustomer(testenv.Customer())
	product := testenv.Product()
	product.DefaultPrice = 1500
	p := invoicePayer{customer: id(cu), product: id(c.CreateProduct(product))}
	if number != "" {
		p.card = id(c.CreateCard(p.customer, number))
	}
	return p
}

// body is a POST /v1/invoices body billing p's customer quantity of its
// product, collected by method.
func (p invoicePayer) body(method string, quantity int, extra map[string]any) map[string]any {
	return merge(map[string]any{"customer": p.customer, "collection_method": method,
		"line_items": []any{map[string]any{"product": p.product, "quantity": quantity}}}, extra)
}

// createInvoice posts an invoice and requires 201.
func createInvoice(t *testing.T, c *testenv.Client, body map[string]any) map[string]any {
	t.Helper()
	r := c.Post("/v1/invoices", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// invoiceAction posts an invoice action and requires 200.
func invoiceAction(t *testing.T, c *testenv.Client, invoiceID, action string, body any) map[string]any {
	t.Helper()
	r := c.Post("/v1/invoices/"+invoiceID+"/"+action, body)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON()
}
