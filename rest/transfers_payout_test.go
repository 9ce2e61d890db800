package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// payoutPricing is an active payout agreement: push to card 1 %, ACH flat 25.
func payoutPricing(t *testing.T, f *fixture, mode string) {
	t.Helper()
	plan := f.sk.CreateFeePlan(mode,
		map[string]any{"fee_type": "percentage", "amount_percentage": "1", "billable_event_type": "transfer.payout.push_to_card"},
		map[string]any{"fee_type": "flat", "amount_fixed_cents": 25, "billable_event_type": "transfer.payout.ach"})
	r := f.sk.Post("/v1/transfer_billing_agreements", map[string]any{"transfer_fee_plan_id": id(plan), "category": "payout",
		"effective_date": "2020-01-01", "status": "active"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
}

// payee is an account able to receive payouts. Its receive capability
// is switched on in the database: reaching it through the API takes a KYC
// run, which the accounts tests cover.
func payee(t *testing.T, f *fixture, capability string) map[string]any {
	t.Helper()
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities(capability))
	f.exec(t, "UPDATE capabilities SET status = 'active' WHERE account_id = ? AND name = ?", id(a), capability)
	return a
}

func TestCardPayoutSendsAndJournals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	payoutPricing(t, f, "deduct")
	a := payee(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4000056655665556")
	tr := createTransfer(t, f.sk, map[string]any{"amount": 10000, "account_id": id(a), "destination_payment_method_id": id(card)})
	require.Equal(t, "succeeded", tr["status"])
	require.Nil(t, tr["source_payment_method"])
	require.Equal(t, id(card), tr["destination_payment_method"].(map[string]any)["id"])
	require.Equal(t, int64(100), num(tr["total_fees"]))
	require.Equal(t, int64(9900), num(tr["net_amount"]))
	require.Equal(t, "payout.push_to_card", f.sk.Get("/v2/transfers/" + id(tr)).JSON()["type"])
	require.Equal(t, []string{"transfer.created", "transfer.succeeded"}, eventTypes(listEvents(t, f.sk, ""), id(tr)))
	books := requireBooksHold(t, f)
	require.Equal(t, int64(10000), books["merchant"], "the merchant's balance paid the payout")
	require.Equal(t, int64(-100), books["platform_fees"])
}

func TestPayoutRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payee(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	body := map[string]any{"amount": 10000, "account_id": id(a), "destination_payment_method_id": id(card)}
	e := requireError(t, f.sk.Post("/v1/transfers", body), http.StatusUnprocessableEntity, "billing_agreement_not_found", "")
	require.Equal(t, "No active payout billing agreement found for this account or merchant.", e["message"])
	payoutPricing(t, f, "absorb")
	requireValidation(t, f.sk.Post("/v1/transfers", merge(body, map[string]any{"currency": "EUR", "promotion_codes": []any{"X"},
		"authorization_mode": "manual"})), "currency", "promotion_codes", "authorization_mode")
	// Without the receive capability, no payout.
	b := f.sk.CreateAccount(testenv.Individual())
	bcard := f.sk.CreateAccountCard(id(b), "4242424242424242")
	requireError(t, f.sk.Post("/v1/transfers", map[string]any{"amount": 100, "account_id": id(b),
		"destination_payment_method_id": id(bcard)}), http.StatusUnprocessableEntity, "capability_not_active", "destination_payment_method_id")
	// A declining card declines the payout, recorded.
	bad := f.sk.CreateAccountCard(id(a), "4000000000009995")
	tr := createTransfer(t, f.sk, merge(body, map[string]any{"destination_payment_method_id": id(bad)}))
	require.Equal(t, "failed", tr["status"])
	require.Equal(t, "insufficient_funds", tr["failure_code"])
	// Absorb: the recipient gets the amount, the merchant pays amount + fees.
	tr = createTransfer(t, f.sk, body)
	require.Equal(t, int64(10000), num(tr["net_amount"]))
	books := requireBooksHold(t, f)
	require.Equal(t, int64(10100), books["merchant"])
	requireError(t, f.sk.Post("/v1/transfers/"+id(tr)+"/cancel", nil), http.StatusUnprocessableEntity, "invalid_state", "")
}

func TestBankPayoutNeedsBankReceive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	payoutPricing(t, f, "deduct")
	a := payee(t, f, "bank_account_receive")
	r := f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "account": id(a), "routing_number": "110000000",
		"account_number": "000123456789", "account_type": "checking"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	tr := createTransfer(t, f.sk, map[string]any{"amount": 5000, "account_id": id(a), "destination_payment_method_id": id(r.JSON())})
	require.Equal(t, "succeeded", tr["status"])
	require.Equal(t, int64(25), num(tr["total_fees"]))
	require.Equal(t, "payout.ach", f.sk.Get("/v2/transfers/" + id(tr)).JSON()["type"])
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	requireError(t, f.sk.Post("/v1/transfers", map[string]any{"amount": 100, "account_id": id(a),
		"destination_payment_method_id": id(card)}), http.StatusUnprocessableEntity, "capability_not_active", "destination_payment_method_id")
	requireBooksHold(t, f)
}
