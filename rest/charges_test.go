package rest_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// chargeOf reads the charge a transfer (a response or a model) names.
func chargeOf(t *testing.T, c *testenv.Client, tr any) map[string]any {
	t.Helper()
	r := c.Get("/v1/charges/" + latestCharge(t, tr))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON()
}

func TestApprovedChargeIsRecordedWithTheTransfer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000).WithDescription("Order 7").WithMetadata(map[string]string{"order": "7"}))
	ch := chargeOf(t, f.sk, tr)

	require.Equal(t, "charge", ch["object"])
	require.Equal(t, "succeeded", ch["status"])
	require.Equal(t, int64(1000), num(ch["amount"]))
	require.Equal(t, "USD", ch["currency"])
	require.Equal(t, int64(1000), num(ch["amount_captured"]))
	require.Equal(t, int64(941), num(ch["net_amount"]), "2.9 % + 30 deducted")
	require.Equal(t, true, ch["captured"])
	require.Equal(t, false, ch["refunded"])
	require.Equal(t, false, ch["disputed"])
	require.Equal(t, int64(0), num(ch["amount_refunded"]))
	require.Nil(t, ch["failure_code"])
	require.Nil(t, ch["failure_message"])
	require.Regexp(t, regexp.MustCompile(`^\d{23}$`), ch["acquirer_reference_number"])
	require.Regexp(t, regexp.MustCompile(`^\d{6}$`), ch["authorization_code"])
	require.Equal(t, id(p.card), ch["payment_method"])
	require.Equal(t, id(p.card), ch["payment_method_id"])
	require.Equal(t, id(p.card), ch["payment_method_details"].(map[string]any)["id"])
	require.Equal(t, "4242", ch["payment_method_details"].(map[string]any)["card"].(map[string]any)["last_four"])
	require.Equal(t, id(p.account), ch["account"])
	require.Equal(t, id(p.account), ch["account_id"])
	require.Nil(t, ch["customer"])
	require.Equal(t, id(tr), ch["transfer"])
	require.Nil(t, ch["charge_intent"])
	require.Equal(t, "Order 7", ch["description"])
	require.Equal(t, map[string]any{"order": "7"}, ch["metadata"])
	require.Equal(t, false, ch["livemode"])
	requireInt(t, ch["created"], "created")

	// The same charge through the transfer's reads and its events.
	require.Equal(t, id(ch), f.sk.Get("/v1/transfers/" + id(tr)).JSON()["latest_charge"])
	succeeded := listEvents(t, f.sk, "transfer.succeeded")
	require.Len(t, succeeded, 1)
	require.Equal(t, id(ch), succeeded[0].object()["latest_charge"])
}

func TestDeclinedChargeIsRecordedFailed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000009995")
	tr := createTransfer(t, f.sk, p.charge(1000, nil))
	require.Equal(t, "failed", tr["status"])
	ch := chargeOf(t, f.sk, tr)
	require.Equal(t, "failed", ch["status"])
	require.Equal(t, "insufficient_funds", ch["failure_code"])
	require.Equal(t, tr["failure_message"], ch["failure_message"])
	require.Equal(t, "card_declined", ch["failure_category"])
	require.Equal(t, false, ch["captured"])
	require.Equal(t, int64(0), num(ch["amount_captured"]))
	require.Nil(t, ch["acquirer_reference_number"])
	require.Nil(t, ch["authorization_code"])
	require.Empty(t, f.sk.Get("/v1/charges/" + id(ch) + "/trace").JSON()["ledger"].(map[string]any)["journals"],
		"a decline moves no money")
}

func TestChargeFollowsManualCapture(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000).WithAuthorizationMode("manual"))
	require.Equal(t, models.TransferRequiresCapture, tr.Status)
	ch := chargeOf(t, f.sk, tr)
	require.Equal(t, "succeeded", ch["status"], "authorized")
	require.Equal(t, false, ch["captured"])
	require.Equal(t, int64(0), num(ch["amount_captured"]))

	r := f.sk.Post("/v1/transfers/"+id(tr)+"/capture", map[string]any{"amount_captured_cents": 600})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(ch), r.JSON()["latest_charge"])
	ch = chargeOf(t, f.sk, r.JSON())
	require.Equal(t, true, ch["captured"])
	require.Equal(t, int64(600), num(ch["amount_captured"]))
	require.Equal(t, int64(553), num(ch["net_amount"]), "17.4 rounds to 17, + 30")
	require.Equal(t, int64(1000), num(ch["amount"]), "the authorized amount")
}

func TestUnconfirmedAndChallengedTransfersHaveNoChargeYet(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := createTransfer(t, f.sk, p.charge(1000, map[string]any{"confirm": false}))
	require.Nil(t, tr["latest_charge"])
	require.Contains(t, tr, "latest_charge")

	challenged := newPayer(t, f.sk, "4000000000003220")
	tr = createTransfer(t, f.sk, challenged.charge(1000, nil))
	require.Equal(t, "requires_3d_secure", tr["status"])
	require.Nil(t, tr["latest_charge"])
	done := f.sk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil)
	require.Equal(t, http.StatusOK, done.Status, string(done.Body))
	require.Equal(t, "succeeded", chargeOf(t, f.sk, done.JSON())["status"])

	declined := newPayer(t, f.sk, "4000008400001629")
	tr = createTransfer(t, f.sk, declined.charge(1000, nil))
	done = f.sk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil)
	ch := chargeOf(t, f.sk, done.JSON())
	require.Equal(t, "failed", ch["status"])
	require.Equal(t, "authentication_required", ch["failure_code"])
}

func TestChargeTraceShowsItsJournalsAndEvents(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	chID := tr.LatestCharge.String()

	r := f.sk.Get("/v1/charges/" + chID + "/trace")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	trace := r.JSON()
	require.Equal(t, "charge", trace["object"], "the charge's own members come first")
	require.Equal(t, chID, trace["id"])
	require.Equal(t, chID, trace["charge_id"])
	journals := trace["ledger"].(map[string]any)["journals"].([]any)
	require.Len(t, journals, 1)
	j := journals[0].(map[string]any)
	require.Equal(t, "charge.capture", j["kind"])
	sum := int64(0)
	parties := map[string]int64{}
	for _, e := range j["entries"].([]any) {
		entry := e.(map[string]any)
		sum += num(entry["amount"])
		parties[entry["party"].(string)] = num(entry["amount"])
	}
	require.Zero(t, sum, "the journal balances")
	require.Equal(t, map[string]int64{"card_clearing": 1000, "merchant": -941, "platform_fees": -59}, parties)

	var types []string
	for _, e := range trace["events"].([]any) {
		ev := e.(map[string]any)
		types = append(types, ev["type"].(string))
		require.Equal(t, id(tr), ev["data"].(map[string]any)["object"].(map[string]any)["id"])
	}
	require.Equal(t, []string{"transfer.created", "transfer.succeeded"}, types)

	// Statements: the credential, then the charge with its payment method,
	// journals, entries and events.
	require.Equal(t, 5, r.Statements)
	require.Equal(t, 2, f.sk.Get("/v1/charges/"+chID).Statements, "credential and one read")
}

func TestChargesAreSecretKeyOnlyAndTenantScoped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	chID := f.sk.CreateTransfer(p.charging(1000)).LatestCharge.String()

	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	stranger := f.env.Client(other.Sandbox.Secret)
	a := requireError(t, stranger.Get("/v1/charges/"+chID), http.StatusNotFound, "resource_missing", "id")
	b := requireError(t, stranger.Get("/v1/charges/"+chID+"/trace"), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, a["message"], b["message"])
	requireError(t, f.live.Get("/v1/charges/"+chID), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Get("/v1/charges/"+chID), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/charges/"+chID+"/trace"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Get("/v1/charges/not-an-id"), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get("/v1/charges/00000000-0000-0000-0000-000000000000/trace"), http.StatusNotFound, "resource_missing", "id")
}
