package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

func TestInvoiceDraftIssuePay(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := f.sk.CreateInvoicePayer(testenv.Visa)

	inv := createInvoice(t, f.sk, merge(p.Invoice("request_payment", 2).RESTBody(), map[string]any{"net_terms": 30,
		"description": "January", "memo": "internal", "metadata": map[string]any{"order": "42"}}))
	require.Equal(t, invoiceKeys, keys(inv))
	require.Equal(t, "invoice", inv["object"])
	require.Equal(t, "draft", inv["status"])
	require.Nil(t, inv["invoice_number"], "a draft has no number")
	require.Equal(t, "request_payment", inv["collection_method"])
	require.Equal(t, "manual", inv["billing_reason"])
	require.Equal(t, "usd", inv["currency"])
	require.Equal(t, int64(3000), num(inv["total"]))
	require.Equal(t, int64(30), num(inv["net_terms"]))
	require.Nil(t, inv["due_date"])
	require.Equal(t, id(p.Customer), inv["customer_id"])
	require.Equal(t, id(p.Customer), inv["customer"].(map[string]any)["id"])
	require.Equal(t, "customer", inv["customer"].(map[string]any)["object"])
	require.Equal(t, []string{"created", "email", "id", "livemode", "name", "object", "updated"},
		keys(inv["customer"].(map[string]any)), "what the PHP SDK's customer model requires")
	require.Equal(t, p.Customer.Email, inv["customer"].(map[string]any)["email"])
	require.Nil(t, inv["account"])
	require.Equal(t, false, inv["livemode"])
	requireInt(t, inv["created"], "created")
	lines := inv["line_items"].([]any)
	require.Len(t, lines, 1)
	line := lines[0].(map[string]any)
	require.Equal(t, lineItemKeys, keys(line))
	require.Equal(t, "invoice_line_item", line["object"])
	require.Equal(t, int64(1500), num(line["unit_amount_cents"]))
	require.Equal(t, int64(1500), num(line["unit_amount"]), "the Ruby SDK's name of the unit price")
	require.Equal(t, int64(2), num(line["quantity"]))

	// Lines change while the invoice is a draft; the total follows them.
	r := f.sk.Post("/v1/invoices/"+id(inv)+"/line_items", map[string]any{"product": id(p.Product), "quantity": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	added := r.JSON()
	require.Equal(t, lineItemKeys, keys(added))
	require.Equal(t, id(inv), added["invoice"])
	r = f.sk.Patch("/v1/invoices/"+id(inv)+"/line_items/"+id(added), map[string]any{"quantity": 3})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, int64(4500), num(r.JSON()["amount"]))
	require.Equal(t, int64(7500), num(f.sk.Get("/v1/invoices/" + id(inv)).JSON()["total"]))
	r = f.sk.Delete("/v1/invoices/" + id(inv) + "/line_items/" + id(line))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"id": id(line), "object": "invoice_line_item", "deleted": true}, r.JSON())
	r = f.sk.Get("/v1/invoices/" + id(inv) + "/line_items")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, []string{"data"}, keys(r.JSON()))
	require.Len(t, r.JSON()["data"], 1)
	require.Equal(t, int64(4500), num(f.sk.Get("/v1/invoices/" + id(inv)).JSON()["total"]))

	// Issued: numbered, open, due net_terms days after the clock's day.
	issued := invoiceAction(t, f.sk, id(inv), "issue", nil)
	require.Equal(t, "open", issued["status"])
	require.Equal(t, "INV-000001", issued["invoice_number"])
	require.Equal(t, "2026-02-14", issued["due_date"])
	require.Nil(t, issued["charge"], "request_payment waits to be paid")
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/issue", nil), http.StatusUnprocessableEntity, "invalid_state", "")

	// An issued invoice's lines are fixed.
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/line_items", map[string]any{"product": id(p.Product), "quantity": 1}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Patch("/v1/invoices/"+id(inv)+"/line_items/"+id(added), map[string]any{"quantity": 1}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Patch("/v1/invoices/"+id(inv), map[string]any{"net_terms": 10}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	r = f.sk.Patch("/v1/invoices/"+id(inv), map[string]any{"memo": "chased"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "chased", r.JSON()["memo"])

	// Paid: charged on the customer's default card through the charge
	// path, with the charge's journal on the ledger.
	paidInv := invoiceAction(t, f.sk, id(inv), "pay", nil)
	require.Equal(t, "paid", paidInv["status"])
	requireInt(t, paidInv["paid_at"], "paid_at")
	require.Equal(t, int64(1), num(paidInv["attempt_count"]))
	chID, _ := paidInv["charge"].(string)
	require.NotEmpty(t, chID)
	trace := f.sk.Get("/v1/charges/" + chID + "/trace").JSON()
	require.Equal(t, "succeeded", trace["status"])
	require.Equal(t, int64(4500), num(trace["amount"]))
	require.Equal(t, id(inv), trace["invoice"])
	require.Equal(t, id(p.Card), trace["payment_method_id"])
	require.Equal(t, id(p.Customer), trace["customer_id"])
	journals := trace["ledger"].(map[string]any)["journals"].([]any)
	require.Len(t, journals, 1)
	require.Equal(t, "charge.capture", journals[0].(map[string]any)["kind"])

	// A paid invoice keeps its lines and cannot be deleted or paid again.
	requireError(t, f.sk.Delete("/v1/invoices/"+id(inv)+"/line_items/"+id(added)), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Delete("/v1/invoices/"+id(inv)), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/pay", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/void", nil), http.StatusUnprocessableEntity, "invalid_state", "")

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"invoice.created", "invoice.updated", "invoice.updated", "invoice.updated",
		"invoice.issued", "invoice.updated", "invoice.paid"}, eventTypes(evs, id(inv)))
	require.Equal(t, []string{"invoice.line_item.created", "invoice.line_item.updated"}, eventTypes(evs, id(added)))
	require.Equal(t, []string{"invoice.line_item.deleted"}, eventTypes(evs, id(line)))
}

func TestInvoiceChargedAutomaticallyForAnAccount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	acct := f.sk.CreateAccount(testenv.Individual())
	card := f.sk.CreateAccountCard(id(acct), testenv.Visa)
	p := f.sk.CreateInvoicePayer("")

	inv := createInvoice(t, f.sk, merge(p.Invoice("auto_charge", 1).RESTBody(), map[string]any{"customer": del, "account": id(acct)}))
	require.Equal(t, "charge_automatically", inv["collection_method"])
	require.Nil(t, inv["customer"])
	require.Equal(t, id(acct), inv["account"].(map[string]any)["id"])
	require.Equal(t, "account", inv["account"].(map[string]any)["object"])

	issued := invoiceAction(t, f.sk, id(inv), "issue", nil)
	require.Equal(t, "paid", issued["status"], "charged automatically when issued")
	ch := f.sk.Get("/v1/charges/" + issued["charge"].(string)).JSON()
	require.Equal(t, id(card), ch["payment_method_id"])
	require.Equal(t, id(acct), ch["account_id"])
	require.Equal(t, []string{"invoice.created", "invoice.issued", "invoice.paid"}, eventTypes(listEvents(t, f.sk, ""), id(inv)))
}

func TestInvoiceDeclineLeavesItOpen(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := f.sk.CreateInvoicePayer("4000000000000002")

	inv := f.sk.CreateInvoice(p.Invoice("charge_automatically", 1))
	issued := invoiceAction(t, f.sk, id(inv), "issue", nil)
	require.Equal(t, "open", issued["status"], "a decline leaves the invoice open")
	require.Equal(t, int64(1), num(issued["attempt_count"]))
	require.Equal(t, "generic_decline", issued["last_payment_error"].(map[string]any)["code"])
	ch := f.sk.Get("/v1/charges/" + issued["charge"].(string)).JSON()
	require.Equal(t, "failed", ch["status"])
	require.Equal(t, "generic_decline", ch["failure_code"])

	// Paid later with a working card: the error is cleared.
	good := f.sk.CreateCard(id(p.Customer), testenv.Visa)
	paidInv := invoiceAction(t, f.sk, id(inv), "pay", map[string]any{"payment_method": id(good)})
	require.Equal(t, "paid", paidInv["status"])
	require.Nil(t, paidInv["last_payment_error"])
	require.Equal(t, int64(2), num(paidInv["attempt_count"]))
}

func TestInvoicePayRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := f.sk.CreateInvoicePayer("")
	inv := f.sk.CreateInvoice(p.Invoice("request_payment", 1))
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/pay", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	invoiceAction(t, f.sk, id(inv), "issue", nil)
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/pay", nil), http.StatusUnprocessableEntity, "payment_method_missing", "")
	other := f.sk.CreateInvoicePayer(testenv.Visa)
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/pay", map[string]any{"payment_method": id(other.Card)}),
		http.StatusUnprocessableEntity, "validation_errors", "payment_method")
	requireValidation(t, f.sk.Post("/v1/invoices/"+id(inv)+"/pay", map[string]any{"payment_method": id(other.Card), "paid_out_of_band": true}),
		"payment_method")

	// Paid out of band: nothing is charged.
	out := invoiceAction(t, f.sk, id(inv), "pay", map[string]any{"paid_out_of_band": true})
	require.Equal(t, "paid", out["status"])
	require.Nil(t, out["charge"])
}

func TestInvoiceVoidUncollectibleDelete(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")

	draft := f.sk.CreateInvoice(p.Invoice("request_payment", 1))
	requireError(t, f.sk.Post("/v1/invoices/"+id(draft)+"/void", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/invoices/"+id(draft)+"/mark_uncollectible", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	r := f.sk.Delete("/v1/invoices/" + id(draft))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"id": id(draft), "object": "invoice", "deleted": true}, r.JSON())
	requireError(t, f.sk.Get("/v1/invoices/"+id(draft)), http.StatusNotFound, "resource_missing", "id")

	inv := f.sk.CreateInvoice(p.Invoice("request_payment", 1))
	invoiceAction(t, f.sk, id(inv), "issue", nil)
	off := invoiceAction(t, f.sk, id(inv), "mark_uncollectible", nil)
	require.Equal(t, "uncollectible", off["status"])
	requireInt(t, off["marked_uncollectible_at"], "marked_uncollectible_at")
	voided := invoiceAction(t, f.sk, id(inv), "void", nil)
	require.Equal(t, "void", voided["status"])
	requireInt(t, voided["voided_at"], "voided_at")
	requireError(t, f.sk.Delete("/v1/invoices/"+id(inv)), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Delete("/v1/invoices/"+id(inv)+"/line_items/"+id(inv.LineItems[0])),
		http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, []string{"invoice.created", "invoice.issued", "invoice.updated", "invoice.voided"},
		eventTypes(listEvents(t, f.sk, ""), id(inv)))
}

func TestInvoiceValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	acct := f.sk.CreateAccount(testenv.Individual())

	requireValidation(t, f.sk.Post("/v1/invoices", map[string]any{}), "collection_method", "customer")
	requireValidation(t, f.sk.Post("/v1/invoices", map[string]any{"customer": id(p.Customer), "account": id(acct),
		"collection_method": "send_invoice", "currency": "dollars", "net_terms": -1, "due_date": "15/02/2026",
		"line_items": []any{map[string]any{"quantity": 0}}}),
		"customer", "collection_method", "currency", "net_terms", "due_date", "line_items.0.product", "line_items.0.quantity")
	requireValidation(t, f.sk.Post("/v1/invoices", merge(p.Invoice("request_payment", 1).RESTBody(), map[string]any{"customer": "cus_nope"})), "customer")
	requireValidation(t, f.sk.Post("/v1/invoices", merge(p.Invoice("request_payment", 1).RESTBody(),
		map[string]any{"line_items": []any{map[string]any{"product": id(acct), "quantity": 1}}})), "line_items.0.product")

	inv := createInvoice(t, f.sk, merge(p.Invoice("request_payment", 1).RESTBody(), map[string]any{"currency": "EUR"}))
	require.Equal(t, "eur", inv["currency"])
	require.Equal(t, "eur", inv["line_items"].([]any)[0].(map[string]any)["unit_amount_currency"])
	requireValidation(t, f.sk.Post("/v1/invoices/"+id(inv)+"/line_items", map[string]any{"product": id(p.Product), "quantity": 0}), "quantity")
	requireValidation(t, f.sk.Post("/v1/invoices/"+id(inv)+"/line_items", map[string]any{}), "product", "quantity")
	requireError(t, f.sk.Get("/v1/invoices/"+id(inv)+"/line_items/"+id(inv)), http.StatusNotFound, "resource_missing", "id")
	requireValidation(t, f.sk.Get("/v1/invoices?status=late"), "status")
	requireValidation(t, f.sk.Get("/v1/invoices?customer=nope"), "customer")
}

func TestInvoiceCredentialsAndTenancy(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	inv := f.sk.CreateInvoice(p.Invoice("request_payment", 1))

	requireError(t, f.pk.Get("/v1/invoices/"+id(inv)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/invoices", p.Invoice("request_payment", 1).RESTBody()), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/invoices/"+id(inv)+"/issue", nil), http.StatusForbidden, "forbidden", "")

	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	for _, r := range []*testenv.Response{
		other.Get("/v1/invoices/" + id(inv)),
		other.Get("/v1/invoices/" + id(inv) + "/line_items"),
		other.Post("/v1/invoices/"+id(inv)+"/issue", nil),
		other.Post("/v1/invoices/"+id(inv)+"/line_items", map[string]any{"product": id(p.Product), "quantity": 1}),
		other.Delete("/v1/invoices/" + id(inv)),
		f.live.Get("/v1/invoices/" + id(inv)),
	} {
		requireError(t, r, http.StatusNotFound, "resource_missing", "id")
	}
	require.Empty(t, other.Get("/v1/invoices").JSON()["data"])
	requireValidation(t, other.Post("/v1/invoices", p.Invoice("request_payment", 1).RESTBody()), "customer")
}

func TestInvoiceListFilters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	acct := f.sk.CreateAccount(testenv.Individual())
	mk := func(extra map[string]any, actions ...string) string {
		inv := createInvoice(t, f.sk, merge(p.Invoice("request_payment", 1).RESTBody(), extra))
		for _, a := range actions {
			invoiceAction(t, f.sk, id(inv), a, map[string]any{"paid_out_of_band": true})
		}
		return id(inv)
	}
	draft := mk(nil)
	due := mk(map[string]any{"net_terms": 10}, "issue")
	overdue := mk(map[string]any{"due_date": "2026-01-10"}, "issue")
	paid := mk(nil, "issue", "pay")
	writtenOff := mk(nil, "issue", "mark_uncollectible")
	voided := mk(nil, "issue", "void")
	forAccount := id(f.sk.CreateInvoice(p.Invoice("request_payment", 1).ForAccount(id(acct))))

	ids := func(query string) []string {
		r := f.sk.Get("/v1/invoices" + query)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		body := r.JSON()
		require.Equal(t, sorted("meta", "data"), keys(body))
		out := []string{}
		for _, inv := range body["data"].([]any) {
			out = append(out, id(inv))
		}
		return out
	}
	require.Equal(t, []string{forAccount, draft}, ids("?status=draft"))
	require.Equal(t, []string{overdue, due}, ids("?status=outstanding"))
	require.Equal(t, []string{due}, ids("?status=due"))
	require.Equal(t, []string{overdue}, ids("?status=overdue"))
	require.Equal(t, []string{paid}, ids("?status=paid"))
	require.Equal(t, []string{writtenOff}, ids("?status=written_off"))
	require.Equal(t, []string{voided}, ids("?status=voided"))
	require.Equal(t, []string{forAccount}, ids("?account="+id(acct)))
	require.Len(t, ids("?customer="+id(p.Customer)), 6)
	require.Equal(t, []string{forAccount, voided}, ids("?per_page=2"))
	page := f.sk.Get("/v1/invoices?per_page=2").JSON()["meta"].(map[string]any)
	require.Equal(t, true, page["has_more"])
}

// An invoice's lines are bounded: a create with too many is refused whole,
// and a line beyond the limit is refused, the invoice unchanged.
func TestInvoiceLineItemsAreBounded(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	lines := make([]any, models.MaxInvoiceLineItems)
	for i := range lines {
		lines[i] = map[string]any{"product": id(p.Product), "quantity": 1}
	}
	tooMany := append(append([]any{}, lines...), map[string]any{"product": id(p.Product), "quantity": 1})
	requireValidation(t, f.sk.Post("/v1/invoices", merge(p.Invoice("request_payment", 1).RESTBody(), map[string]any{"line_items": tooMany})), "line_items")

	inv := createInvoice(t, f.sk, merge(p.Invoice("request_payment", 1).RESTBody(), map[string]any{"line_items": lines}))
	require.Len(t, inv["line_items"], models.MaxInvoiceLineItems)
	requireError(t, f.sk.Post("/v1/invoices/"+id(inv)+"/line_items", map[string]any{"product": id(p.Product), "quantity": 1}),
		http.StatusUnprocessableEntity, "invoice_line_item_limit_reached", "")
	got := f.sk.Get("/v1/invoices/" + id(inv)).JSON()
	require.Len(t, got["line_items"], models.MaxInvoiceLineItems)
	require.Equal(t, num(inv["total"]), num(got["total"]))
}
