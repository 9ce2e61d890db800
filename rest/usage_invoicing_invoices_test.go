package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var mar1 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// eventCount counts the events of typ about object.
func (f *fixture) eventCount(t *testing.T, typ, object string) int {
	t.Helper()
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM events WHERE type = ? AND object_id = ?::uuid", typ, object).
		Scan(context.Background(), &n))
	return n
}

func TestUsageInvoiceBillsPricedUsageWithCredits(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 3)
	first := p.report(t, f, apiCalls, "r1", "10", mar1.Add(time.Hour))
	r := f.sk.Post(meteringEventsPath, map[string]any{"event_name": apiCalls, "reference": "r2", "customer": p.customer,
		"value": 5, "markup_percentage": 50, "timestamp": iso(mar1.AddDate(0, 0, 1))})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	p.report(t, f, "log.lines", "l1", "1000", mar1.Add(time.Hour)) // no product: never billed
	credit := f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 4, iso(mar15.AddDate(0, 1, 0))))

	inv := p.bill(t, f, mar1, mar15, nil)
	require.Equal(t, invoiceKeys, keys(inv))
	require.Equal(t, "usage", inv["billing_reason"])
	require.Equal(t, "paid", inv["status"], "charged automatically by default")
	require.Equal(t, "usd", inv["currency"])
	require.NotNil(t, inv["charge"])
	// U = 15, W = 10 + 5·1.5 = 17.5, C = 4: 3 · 17.5 · 11/15 = 38.5, half up.
	require.Equal(t, float64(39), inv["total"])
	ls := lines(inv)
	require.Len(t, ls, 1)
	l := ls[0]
	require.Equal(t, usageLineKeys, keys(l))
	require.Equal(t, "usage", l["kind"])
	require.Equal(t, float64(1), l["quantity"])
	require.Equal(t, float64(39), l["unit_amount_cents"])
	require.Equal(t, p.product, l["product"])
	require.Equal(t, apiCalls, l["event_name"])
	require.Equal(t, "15", l["usage"])
	require.Equal(t, "4", l["credits_applied"])
	require.Equal(t, first["meter_id"], l["meter_id"])
	require.Equal(t, mar1.Unix(), num(l["period_start"]))
	require.Equal(t, mar15.Unix(), num(l["period_end"]))

	// A line of another kind keeps its exact shape.
	plain := createInvoice(t, f.sk, map[string]any{"customer": p.customer, "collection_method": "request_payment",
		"line_items": []any{map[string]any{"product": p.product, "quantity": 1}}})
	require.Equal(t, lineItemKeys, keys(lines(plain)[0]))

	c := f.sk.Get(creditsPath + "/" + id(credit)).JSON()
	require.Equal(t, "exhausted", c["status"])
	require.Equal(t, "0", c["available_credits"])
	require.Equal(t, "4", c["used_credits"])
	require.Equal(t, 1, f.eventCount(t, "billing_credit.exhausted", id(credit)))
	require.Equal(t, id(inv), f.sk.Get(meteringEventsPath + "/" + id(first)).JSON()["invoice"])

	// The window is billed: again, or an event into it, is refused.
	requireError(t, f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar1.AddDate(0, 0, 5)),
		iso(mar15)).RESTBody()), http.StatusUnprocessableEntity, "usage_period_invoiced", "start_date")
	requireError(t, f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, "late", p.customer).
		At(iso(mar1.AddDate(0, 0, 3))).RESTBody()), http.StatusUnprocessableEntity, "usage_period_invoiced", "timestamp")
	// Another name's window is its own: log.lines is not priced, so nothing to bill.
	requireError(t, f.sk.Post(usageInvoicePath, merge(testenv.UsageInvoice(p.customer, iso(mar1), iso(mar15)).RESTBody(),
		map[string]any{"events": "log.lines"})), http.StatusUnprocessableEntity, "no_billable_usage", "")
	requireError(t, f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar1.AddDate(0, -1, 0)), iso(mar1)).
		RESTBody()), http.StatusUnprocessableEntity, "no_billable_usage", "")
	// The window may not end after the payer's time.
	requireValidation(t, f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar15), iso(mar15.Add(time.Second))).
		RESTBody()), "end_date")
}

func TestUsageInvoiceRequestPaymentAndEvents(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 700)
	other := f.sk.CreateProduct(testenv.Product())
	f.sk.PriceMeter("storage.gb", id(other), "max")
	p.report(t, f, apiCalls, "a", "2", mar1)
	p.report(t, f, "storage.gb", "s1", "3", mar1.AddDate(0, 0, 2))
	p.report(t, f, "storage.gb", "s2", "8", mar1.AddDate(0, 0, 3))
	p.report(t, f, "storage.gb", "s3", "8", mar1.AddDate(0, 0, 4))

	inv := p.bill(t, f, mar1, mar15, map[string]any{"events": "storage.gb", "collection_method": "request_payment",
		"net_terms": 10, "description": "March storage", "memo": "thanks"})
	require.Equal(t, "open", inv["status"])
	require.Nil(t, inv["charge"])
	require.Equal(t, "2026-03-25", inv["due_date"])
	require.Equal(t, "March storage", inv["description"])
	require.Equal(t, "thanks", inv["memo"])
	ls := lines(inv)
	require.Len(t, ls, 1)
	require.Equal(t, "storage.gb", ls[0]["event_name"])
	require.Equal(t, "8", ls[0]["usage"])
	require.Equal(t, float64(8*testenv.Product().DefaultPrice), inv["total"])

	// api.calls of the same window is still to bill: its own window.
	inv = p.bill(t, f, mar1, mar15, map[string]any{"events": apiCalls})
	require.Equal(t, float64(1400), inv["total"])
	require.Equal(t, "paid", inv["status"])
}

func TestUsageInvoiceLimitedCreditsCapTheCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	spec := testenv.BillingCredit(p.product, p.customer, 10, iso(mar15.AddDate(0, 1, 0)))
	spec.Limited = true
	f.sk.CreateBillingCredit(spec)
	p.report(t, f, apiCalls, "a", "15", mar1)
	inv := p.bill(t, f, mar1, mar1.AddDate(0, 0, 7), nil)
	require.Equal(t, float64(0), inv["total"], "usage beyond a limited pool is not charged")
	require.Equal(t, "10", lines(inv)[0]["credits_applied"])
	require.Equal(t, "paid", inv["status"])

	// The pool is exhausted: the payer holds no limited pool any more.
	p.report(t, f, apiCalls, "b", "2", mar1.AddDate(0, 0, 8))
	inv = p.bill(t, f, mar1.AddDate(0, 0, 7), mar15, nil)
	require.Equal(t, float64(200), inv["total"])
}

func TestUsageInvoiceExpiredCreditsAreNotApplied(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 500)
	f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 100, iso(mar15.AddDate(0, 0, 1))))
	p.report(t, f, apiCalls, "a", "4", mar15.Add(time.Hour))
	f.sk.AdvanceTestClock(p.clock, mar15.AddDate(0, 0, 1))
	inv := p.bill(t, f, mar15, mar15.AddDate(0, 0, 1), nil)
	require.Equal(t, float64(2000), inv["total"])
	require.Equal(t, "0", lines(inv)[0]["credits_applied"])
}

func TestUsageInvoiceValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 5)
	requireValidation(t, f.sk.Post(usageInvoicePath, map[string]any{}), "customer", "start_date", "end_date")
	requireValidation(t, f.sk.Post(usageInvoicePath, map[string]any{"customer": p.customer, "account": "a",
		"start_date": iso(mar15), "end_date": iso(mar1), "collection_method": "barter", "net_terms": -1,
		"events": "ok,bad name"}), "customer", "end_date", "collection_method", "net_terms", "events")
	requireValidation(t, f.sk.Post(usageInvoicePath, map[string]any{"customer": p.customer, "start_date": "yesterday",
		"end_date": iso(mar1)}), "start_date")

	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	body := testenv.UsageInvoice(p.customer, iso(mar1), iso(mar15)).RESTBody()
	requireError(t, f.pk.Post(usageInvoicePath, body), http.StatusForbidden, "forbidden", "")
	requireValidation(t, other.Post(usageInvoicePath, body), "customer")
	requireValidation(t, f.live.Post(usageInvoicePath, body), "customer")
	// Production bills its own payers; with nothing reported there is nothing to bill.
	cu := f.live.CreateCustomer(testenv.Customer())
	requireError(t, f.live.Post(usageInvoicePath, testenv.UsageInvoice(id(cu), iso(testenv.Start.AddDate(0, 0, -1)),
		iso(testenv.Start)).RESTBody()), http.StatusUnprocessableEntity, "no_billable_usage", "")
}
