package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// The bound on money, tried as an attacker with a sandbox key would
// (docs/billing.md, "The bound on money"): amounts, prices and usage that
// each pass, multiplied or summed past the bound, are refused with 422 on
// the member that took them there, and nothing is stored or charged.

const maxAmount = models.MaxAmount

func TestAmountsBeyondTheBoundAreRefusedAtTheirMember(t *testing.T) {
	t.Parallel()
	f := setup(t)
	over := maxAmount + 1
	product := testenv.Product().RESTBody()
	requireProblem(t, requireValidation(t, f.sk.Post("/v1/products", merge(product, map[string]any{"default_price": over})),
		"default_price"), "default_price", "must be at most 99999999999")
	requireProblem(t, requireValidation(t, f.sk.Post("/v1/products", merge(product, map[string]any{"default_price": int64(9e18)})),
		"default_price"), "default_price", "must be at most 99999999999")
	p := newPayer(t, f.sk, testenv.Visa)
	requireValidation(t, f.sk.Post("/v1/transfers", p.charge(over, nil)), "amount")
	requireValidation(t, f.sk.Post(thresholdsPath, map[string]any{"customer": id(f.sk.CreateCustomer(testenv.Customer())),
		"threshold_amount_cents": over}), "threshold_amount_cents")
	requireValidation(t, f.sk.Post("/v1/transfer_fee_plans", map[string]any{"name": "huge", "fee_application_mode": "deduct",
		"items": []any{map[string]any{"fee_type": "flat", "amount_fixed_cents": over, "amount_fixed_currency": "USD",
			"billable_event_type": "transfer.charge.card"}}}), "items.0.amount_fixed_cents")
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "huge", "discount_type": "fixed_amount",
		"discount_value": "1000000000.00", "duration": "once", "applicable_to": "all_products"}), "discount_value")
	var products int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM products").Scan(context.Background(), &products))
	require.Zero(t, products, "nothing was stored")
}

func TestInvoiceTotalsNeverPassTheBound(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	top := testenv.Product()
	top.DefaultPrice = maxAmount
	atMax := id(f.sk.CreateProduct(top))

	// One line at the bound is fine; twice it, or two such lines, is not.
	ok := f.sk.Post("/v1/invoices", testenv.Invoice(cu, "request_payment", atMax, 1).RESTBody())
	require.Equal(t, http.StatusCreated, ok.Status, string(ok.Body))
	require.Equal(t, float64(maxAmount), ok.JSON()["total"])
	requireProblem(t, requireValidation(t, f.sk.Post("/v1/invoices", testenv.Invoice(cu, "request_payment", atMax, 2).RESTBody()),
		"line_items.0.quantity"), "line_items.0.quantity", "gives the line an amount (quantity × unit price) beyond the largest amount, 99999999999")
	requireProblem(t, requireValidation(t, f.sk.Post("/v1/invoices",
		testenv.Invoice(cu, "request_payment", atMax, 1).WithLineItem(atMax, 1).RESTBody()), "line_items.1.quantity"),
		"line_items.1.quantity", "gives the invoice a total beyond the largest amount, 99999999999")

	// Adding a line or raising a quantity past the bound changes nothing.
	draft := id(ok.JSON())
	linesPath := "/v1/invoices/" + draft + "/line_items"
	requireValidation(t, f.sk.Post(linesPath, map[string]any{"product": atMax, "quantity": 1}), "quantity")
	li := id(ok.JSON()["line_items"].([]any)[0])
	requireValidation(t, f.sk.Patch(linesPath+"/"+li, map[string]any{"quantity": 3}), "quantity")
	inv := f.sk.Get("/v1/invoices/" + draft).JSON()
	require.Equal(t, float64(maxAmount), inv["total"])
	require.Len(t, inv["line_items"], 1)
}

// The sandbox processor refuses what a real one would: a charge above its
// per-charge ceiling (999,999.99) declines amount_too_large, recorded as
// any decline; the ceiling itself is charged.
func TestTheSandboxProcessorDeclinesAboveItsCeiling(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, testenv.Visa)
	declined := createTransfer(t, f.sk, p.charge(99_999_999+1, nil))
	require.Equal(t, "failed", declined["status"])
	require.Equal(t, "amount_too_large", declined["failure_code"])
	approved := createTransfer(t, f.sk, p.charge(99_999_999, nil))
	require.Equal(t, "succeeded", approved["status"], approved["failure_code"])

	// An invoice within the bound but above the ceiling stays open with
	// the decline, charged automatically or paid by hand.
	payer := f.sk.CreateInvoicePayer(testenv.Visa)
	big := testenv.Product()
	big.DefaultPrice = 100_000_000
	product := id(f.sk.CreateProduct(big))
	inv := f.sk.IssueInvoice(id(f.sk.CreateInvoice(testenv.Invoice(id(payer.Customer), "charge_automatically", product, 3))))
	require.Equal(t, models.InvoiceOpen, inv.Status)
	require.Equal(t, int64(300_000_000), inv.Total)
	require.Equal(t, "amount_too_large", inv.LastPaymentError.Code)
	var charged int64
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT coalesce(sum(amount_captured), 0) FROM charges WHERE amount > 99999999").
		Scan(context.Background(), &charged))
	require.Zero(t, charged, "nothing above the ceiling was captured")
}

// Usage priced past the bound is refused when it would be billed: a
// usage invoice of the window on end_date (nothing is claimed), and an
// event whose auto-charge would bill past it on value (the event is not
// recorded). The threshold's progress never goes negative.
func TestUsageBilledPastTheBoundIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 1_000_000_000) // 10 million dollars a call
	p.report(t, f, apiCalls, "a", "99", mar15.Add(-2*time.Hour))
	p.report(t, f, apiCalls, "b", "99", mar15.Add(-time.Hour))
	r := f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar1), iso(mar15)).RESTBody())
	requireProblem(t, requireValidation(t, r, "end_date"), "end_date",
		"closes a window whose usage is priced beyond the largest amount, 99999999999; bill a shorter window")
	count := func(query string) int {
		var n int
		require.NoError(t, f.env.DB.Bun.NewRaw(query).Scan(context.Background(), &n))
		return n
	}
	require.Equal(t, 2, count("SELECT count(*) FROM metering_events_billed WHERE billed_by IS NULL"), "nothing was claimed")
	require.Zero(t, count("SELECT count(*) FROM invoices"))

	prog := f.sk.Get(thresholdProgress + "?customer=" + p.customer).JSON()
	require.Equal(t, float64(maxAmount), prog["accumulated_amount_cents"], "shown at the bound, never wrapped negative")

	// With a threshold, the event that reaches it would charge the cycle
	// past the bound: it is refused, and recorded nowhere.
	f.sk.SetUsageThreshold(p.customer, 1000)
	r = f.sk.Post(meteringEventsPath, testenv.MeteringEvent(apiCalls, "c", p.customer).WithValue("1").At(iso(mar15)).RESTBody())
	requireProblem(t, requireValidation(t, r, "value"), "value",
		"triggers an auto-charge of the cycle's usage beyond the largest amount, 99999999999; invoice part of the cycle first (POST /v1/billing/billing_invoice)")
	require.Equal(t, 2, count("SELECT count(*) FROM metering_events"))

	// Billing part of the cycle makes room: the window of the first event
	// bills 99,000,000,000 (above the processor's ceiling, so declined and
	// left open), and the next event's auto-charge fits the bound.
	inv := p.bill(t, f, mar1, mar15.Add(-90*time.Minute), nil)
	require.Equal(t, float64(99_000_000_000), inv["total"])
	require.Equal(t, "open", inv["status"])
	ev := p.report(t, f, apiCalls, "c", "0.5", mar15)
	require.NotNil(t, ev["invoice"], "the threshold charged the cycle")
	charged := f.sk.Get("/v1/invoices/" + ev["invoice"].(string)).JSON()
	require.Equal(t, float64(99_500_000_000), charged["total"])
	require.Equal(t, "amount_too_large", charged["last_payment_error"].(map[string]any)["code"])
}
