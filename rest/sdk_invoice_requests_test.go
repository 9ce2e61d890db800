package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The PHP SDK sends an invoice's line_items as one object
// (InvoiceLineItems): it is one line, checked as the array's first.
func TestInvoiceCreateTakesOneLineItemObject(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	body := func(lineItems any) map[string]any {
		return map[string]any{"customer": id(p.Customer), "collection_method": "request_payment", "line_items": lineItems}
	}

	inv := createInvoice(t, f.sk, body(map[string]any{"product": id(p.Product), "quantity": 2}))
	lines := inv["line_items"].([]any)
	require.Len(t, lines, 1)
	require.Equal(t, id(p.Product), lines[0].(map[string]any)["product"])
	require.Equal(t, int64(3000), num(inv["total"]))

	// Hostile: the same problems as in an array, named at line_items.0;
	// a product of the other mode, a wrong type, a huge quantity.
	other := f.live.CreateProduct(testenv.Product())
	requireValidation(t, f.sk.Post("/v1/invoices", body(map[string]any{"product": id(other), "quantity": 1})),
		"line_items.0.product")
	requireValidation(t, f.sk.Post("/v1/invoices", body(map[string]any{"quantity": 1_000_000_000})),
		"line_items.0.product", "line_items.0.quantity")
	requireError(t, f.sk.Post("/v1/invoices", body("one")), http.StatusBadRequest, "parameter_invalid", "line_items")
	r := f.sk.Post("/v1/invoices", body(map[string]any{"product": id(p.Product), "quantity": "2"}))
	require.Equal(t, http.StatusBadRequest, r.Status, string(r.Body))
	require.Equal(t, "parameter_invalid", r.JSON()["code"])
	require.Len(t, listOf(t, f.sk, "/v1/invoices"), 1, "nothing refused was made")
}
