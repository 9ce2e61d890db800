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
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// subscriptionKeys are the members of a subscription: the spec's, the
// SDK's that the server serves, and the payer's ids.
var subscriptionKeys = sorted("id", "object", "status", "account", "customer", "account_id", "customer_id", "product",
	"currency", "quantity", "default_payment_method", "description", "proration_behavior", "current_period_start",
	"current_period_end", "paused_at", "resume_at", "canceled_at", "scheduled_change", "latest_invoice",
	"latest_charge_intent", "metadata", "plan", "has_phases", "current_phase", "effective_amount", "effective_interval", "effective_interval_count",
	"start_date", "livemode", "created", "updated")

// applyDue runs the due source of kind on the subscription at at, as the
// clock's advance or the periodic run does.
func applyDue(t *testing.T, f *fixture, kind, subscriptionID string, at time.Time) error {
	t.Helper()
	svc := f.env.Services.Billing
	for _, src := range svc.DueSources() {
		if src.Kind() != kind {
			continue
		}
		due := due.Due{At: at, Kind: kind, ID: uuid.MustParse(subscriptionID)}
		return op.BackgroundAt(context.Background(), svc.Kit, store.Scope{MerchantID: f.env.Merchant.ID}, at,
			func(ctx context.Context, w *op.W) error { return src.Apply(ctx, w, due) })
	}
	t.Fatalf("no due source %q", kind)
	return nil
}

// nextDue asks the source of kind for its next effect on no test clock.
func nextDue(t *testing.T, f *fixture, kind string, upTo time.Time) *due.Due {
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
