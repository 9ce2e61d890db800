package rest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/billing"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// subscriptionKeys are the members of a subscription: the spec's, the
// SDK's that the server serves, and the payer's ids.
var subscriptionKeys = sorted("id", "object", "status", "account", "customer", "account_id", "customer_id", "product",
	"currency", "quantity", "default_payment_method", "description", "proration_behavior", "current_period_start",
	"current_period_end", "paused_at", "resume_at", "canceled_at", "scheduled_change", "latest_invoice", "metadata",
	"plan", "has_phases", "current_phase", "effective_amount", "effective_interval", "effective_interval_count",
	"start_date", "livemode", "created", "updated")

// subscriber is a customer with a card (or none) and a monthly product
// priced 2000.
type subscriber struct {
	customer, card, product string
}

func newSubscriber(t *testing.T, c *testenv.Client, number string) subscriber {
	t.Helper()
	cu := c.CreateCustomer(testenv.Customer())
	s := subscriber{customer: id(cu), product: newMonthly(t, c, 2000, "monthly")}
	if number != "" {
		s.card = id(c.CreateCard(s.customer, number))
	}
	return s
}

// newMonthly creates a recurring product of price and interval.
func newMonthly(t *testing.T, c *testenv.Client, price int64, interval string) string {
	t.Helper()
	p := testenv.Product()
	p.DefaultPrice, p.RecurringInterval = price, interval
	return id(c.CreateProduct(p))
}

func (s subscriber) body(extra map[string]any) map[string]any {
	return merge(map[string]any{"customer": s.customer, "product": s.product, "currency": "usd"}, extra)
}

// createSubscription posts a subscription and requires 201.
func createSubscription(t *testing.T, c *testenv.Client, body map[string]any) map[string]any {
	t.Helper()
	r := c.Post("/v1/subscriptions", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// applyDue runs the due source of kind on the subscription at at, as the
// clock's advance or the periodic run does.
func applyDue(t *testing.T, f *fixture, kind, subscriptionID string, at time.Time) error {
	t.Helper()
	svc := f.env.Services.Billing
	for _, src := range svc.DueSources() {
		if src.Kind() != kind {
			continue
		}
		due := billing.Due{At: at, Kind: kind, ID: uuid.MustParse(subscriptionID)}
		return op.BackgroundAt(context.Background(), svc.Kit, store.Scope{MerchantID: f.env.Merchant.ID}, at,
			func(ctx context.Context, w *op.W) error { return src.Apply(ctx, w, due) })
	}
	t.Fatalf("no due source %q", kind)
	return nil
}

// nextDue asks the source of kind for its next effect on no test clock.
func nextDue(t *testing.T, f *fixture, kind string, upTo time.Time) *billing.Due {
	t.Helper()
	svc := f.env.Services.Billing
	for _, src := range svc.DueSources() {
		if src.Kind() == kind {
			d, err := src.Next(context.Background(), svc.DB.Tenant(store.Scope{MerchantID: f.env.Merchant.ID}), uuid.Nil, upTo)
			require.NoError(t, err)
			return d
		}
	}
	t.Fatalf("no due source %q", kind)
	return nil
}

// periodEnd is a subscription's current_period_end.
func periodEnd(sub map[string]any) time.Time {
	return time.Unix(num(sub["current_period_end"]), 0).UTC()
}

// subscriptionInvoices lists a subscription's invoices, newest first.
func subscriptionInvoices(t *testing.T, c *testenv.Client, subID string) []map[string]any {
	t.Helper()
	r := c.Get("/v1/invoices?per_page=100&subscription=" + subID)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var out []map[string]any
	for _, v := range r.JSON()["data"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return out
}
