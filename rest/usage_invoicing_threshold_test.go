package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestUsageThresholdChargesWhenReached(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	r := f.sk.Post(thresholdsPath, map[string]any{"customer": p.customer, "threshold_amount_cents": 1000})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	prog := r.JSON()
	require.Equal(t, progressKeys, keys(prog))
	require.Equal(t, "threshold_progress", prog["object"])
	require.Equal(t, float64(1000), prog["threshold_amount_cents"])
	require.Equal(t, float64(0), prog["accumulated_amount_cents"])
	require.Nil(t, prog["oldest_pending_charge_at"])
	require.Equal(t, "2026-03-01T00:00:00Z", prog["period_start"])
	require.Equal(t, "2026-04-01T00:00:00Z", prog["period_end"])
	require.Equal(t, "monthly", prog["billing_cycle"])
	require.Equal(t, p.customer, prog["customer"])

	p.report(t, f, apiCalls, "a", "4", mar15.Add(-time.Hour))
	p.report(t, f, apiCalls, "old", "50", mar1.Add(-time.Hour)) // last cycle: not accumulated
	prog = f.sk.Get(thresholdProgress + "?customer=" + p.customer).JSON()
	require.Equal(t, float64(400), prog["accumulated_amount_cents"])
	require.Equal(t, float64(40), prog["threshold_percentage"])
	require.Equal(t, iso(mar15.Add(-time.Hour)), prog["oldest_pending_charge_at"])

	// The event that reaches the threshold charges the cycle's usage at once.
	ev := p.report(t, f, apiCalls, "b", "7", mar15)
	require.NotNil(t, ev["invoice"], "billed by the auto-charge in its own write")
	inv := f.sk.Get("/v1/invoices/" + ev["invoice"].(string)).JSON()
	require.Equal(t, "usage", inv["billing_reason"])
	require.Equal(t, "paid", inv["status"])
	require.Equal(t, float64(1100), inv["total"])
	require.Equal(t, "11", lines(inv)[0]["usage"])
	prog = f.sk.Get(thresholdProgress + "?customer=" + p.customer).JSON()
	require.Equal(t, float64(0), prog["accumulated_amount_cents"], "accumulation starts again")
	require.Nil(t, prog["oldest_pending_charge_at"])

	// Removed: nothing is charged automatically any more.
	r = f.sk.Delete(thresholdsPath + "?customer=" + p.customer)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(0), r.JSON()["threshold_amount_cents"])
	ev = p.report(t, f, apiCalls, "c", "70", mar15)
	require.Nil(t, ev["invoice"])
	prog = f.sk.Get(thresholdProgress + "?customer_id=" + p.customer).JSON()
	require.Equal(t, float64(7000), prog["accumulated_amount_cents"])
	require.Equal(t, float64(0), prog["threshold_percentage"])
}

func TestUsageThresholdChargeFailureKeepsTheEvent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	clock := f.sk.CreateTestClock(testenv.TestClock(mar15))
	p := usagePayer{clock: id(clock), customer: id(f.sk.CreateClockedCustomer(id(clock)))} // no card
	product := testenv.Product()
	product.DefaultPrice = 500
	f.sk.PriceMeter(apiCalls, id(f.sk.CreateProduct(product)), "")
	f.sk.SetUsageThreshold(p.customer, 1000)
	ev := p.report(t, f, apiCalls, "a", "3", mar15)
	inv := f.sk.Get("/v1/invoices/" + ev["invoice"].(string)).JSON()
	require.Equal(t, "open", inv["status"], "the charge could not be made: recorded, the event kept")
	require.Equal(t, float64(1), inv["attempt_count"])
	require.NotNil(t, inv["last_payment_error"])
}

func TestUsageThresholdValidationAndTenancy(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 100)
	requireValidation(t, f.sk.Post(thresholdsPath, map[string]any{}), "customer", "threshold_amount_cents")
	requireValidation(t, f.sk.Post(thresholdsPath, map[string]any{"customer": p.customer, "account": "x",
		"threshold_amount_cents": 0, "billing_cycle": "weekly"}), "customer", "threshold_amount_cents", "billing_cycle")
	requireValidation(t, f.sk.Get(thresholdProgress), "customer")
	requireValidation(t, f.sk.Get(thresholdProgress+"?customer="+p.customer+"&account=x"), "customer")
	requireValidation(t, f.sk.Delete(thresholdsPath), "customer")

	requireError(t, f.pk.Get(thresholdProgress+"?customer="+p.customer), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post(thresholdsPath, map[string]any{"customer": p.customer, "threshold_amount_cents": 5}),
		http.StatusForbidden, "forbidden", "")
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireValidation(t, other.Get(thresholdProgress+"?customer="+p.customer), "customer")
	requireValidation(t, f.live.Get(thresholdProgress+"?customer="+p.customer), "customer")
	requireValidation(t, other.Post(thresholdsPath, map[string]any{"customer": p.customer, "threshold_amount_cents": 5}), "customer")

	// An account's progress, in production.
	acct := f.live.CreateAccount(testenv.Individual())
	r := f.live.Get(thresholdProgress + "?account=" + id(acct))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(acct), r.JSON()["account"])
	require.Equal(t, id(acct), r.JSON()["account_id"])
	require.Equal(t, true, r.JSON()["livemode"])
}
