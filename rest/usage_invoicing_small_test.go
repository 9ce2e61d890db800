package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A usage invoice smaller than the fees of charging it (a deduct plan's
// 30 cents on a 1-cent bill) is made, its usage billed, and its collection
// recorded on it as an automatic collection's refusal is (docs/billing.md):
// open, one attempt, last_payment_error amount_too_small, no charge. It is
// not refused whole, which would leave the usage unbilled for good.
func TestUsageInvoiceSmallerThanItsFeesIsRecordedNotRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 1)
	p.report(t, f, apiCalls, "small-1", "1", mar1.Add(time.Hour))

	inv := p.bill(t, f, mar1, mar15, nil)
	require.Equal(t, "open", inv["status"])
	require.Equal(t, "charge_automatically", inv["collection_method"])
	require.Equal(t, int64(1), num(inv["total"]))
	require.Equal(t, int64(1), num(inv["attempt_count"]))
	require.Nil(t, inv["charge"], "no charge was made")
	lastError := inv["last_payment_error"].(map[string]any)
	require.Equal(t, "amount_too_small", lastError["code"])
	require.NotEmpty(t, lastError["message"])
	require.Len(t, lines(inv), 1)
	require.Equal(t, 1, f.eventCount(t, "invoice.updated", id(inv)), "the attempt is announced")

	// The window is billed: billing it again is refused, and the invoice
	// reads back as answered.
	requireError(t, f.sk.Post(usageInvoicePath, testenv.UsageInvoice(p.customer, iso(mar1), iso(mar15)).RESTBody()),
		http.StatusUnprocessableEntity, "usage_period_invoiced", "start_date")
	got := f.sk.Get("/v1/invoices/" + id(inv))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, inv["last_payment_error"], got.JSON()["last_payment_error"])
}
