package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// mar15 is noon on 15 March 2026, UTC: the usage payers' clocks start
// there.
var mar15 = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

const (
	creditsPath       = "/v1/billing/billing_credit"
	usageInvoicePath  = "/v1/billing/billing_invoice"
	thresholdsPath    = "/v1/billing/thresholds"
	thresholdProgress = "/v1/billing/report/threshold_progress"
)

var creditKeys = sorted("id", "object", "customer", "customer_id", "account", "account_id", "product", "billing_credits",
	"available_credits", "used_credits", "status", "watchlist", "limited", "expires", "metadata", "livemode", "created", "updated")

var progressKeys = sorted("object", "accumulated_amount_cents", "threshold_amount_cents", "threshold_percentage",
	"oldest_pending_charge_at", "period_start", "period_end", "billing_cycle", "customer", "account", "account_id", "livemode")

// usageLineKeys are the members of a usage line: a line's, and its usage.
var usageLineKeys = sorted(append(append([]string{}, lineItemKeys...), "event_name", "usage", "credits_applied", "meter_id")...)

// usagePayer is a customer on a test clock at mar15 with a card, the
// standard pricing to charge it, and a product priced price per unit of
// the meter "api.calls".
type usagePayer struct {
	clock, customer, product, card string
}

const apiCalls = "api.calls"

func newUsagePayer(t *testing.T, f *fixture, price int64) usagePayer {
	t.Helper()
	f.sk.StandardPricing()
	return newUsageCustomer(t, f, price)
}

// newUsageCustomer is newUsagePayer without setting the pricing up again.
func newUsageCustomer(t *testing.T, f *fixture, price int64) usagePayer {
	t.Helper()
	clock := f.sk.CreateTestClock(testenv.TestClock(mar15))
	p := usagePayer{clock: id(clock), customer: id(f.sk.CreateClockedCustomer(id(clock)))}
	p.card = id(f.sk.CreateCard(p.customer, testenv.Visa))
	product := testenv.Product()
	product.DefaultPrice = price
	p.product = id(f.sk.CreateProduct(product))
	f.sk.PriceMeter(apiCalls, p.product, "")
	return p
}

// report records an event of name for p at at.
func (p usagePayer) report(t *testing.T, f *fixture, name, ref, value string, at time.Time) map[string]any {
	t.Helper()
	r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent(name, ref, p.customer).WithValue(value).At(iso(at)).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// bill posts a usage invoice of p's [from, to) and requires 201.
func (p usagePayer) bill(t *testing.T, f *fixture, from, to time.Time, extra map[string]any) map[string]any {
	t.Helper()
	r := f.sk.Post(usageInvoicePath, merge(testenv.UsageInvoice(p.customer, iso(from), iso(to)).RESTBody(), extra))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// lines are an invoice's line items.
func lines(inv map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range inv["line_items"].([]any) {
		out = append(out, l.(map[string]any))
	}
	return out
}
