package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// payoutAccount is an account able to receive payouts on receive (card_receive
// or bank_account_receive), with approved KYC. The capabilities are
// switched on in the database: reaching them through the API takes a KYC
// run, which the accounts tests cover.
func payoutAccount(t *testing.T, f *fixture, receive string) map[string]any {
	t.Helper()
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities(receive))
	f.exec(t, "UPDATE capabilities SET status = 'active' WHERE account_id = ? AND name IN (?, 'kyc')", id(a), receive)
	return a
}

// createPayout posts body to /v1/payouts and requires 201.
func createPayout(t *testing.T, c *testenv.Client, body map[string]any) map[string]any {
	t.Helper()
	r := c.Post("/v1/payouts", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// cardPayout is a payout body of amount to card (a model or a response).
func cardPayout(card any, amount int64) map[string]any {
	return map[string]any{"payment_method": id(card), "amount": amount, "currency": "USD"}
}

// fundingBooks checks the ledger's invariants and returns the balances of
// the parties payouts and fundings move (USD, debits positive).
func fundingBooks(t *testing.T, f *fixture) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	tn := f.env.DB.Tenant(scopeOf(f))
	drift, err := ledger.Audit(ctx, tn)
	require.NoError(t, err)
	require.Empty(t, drift, "every balance equals the sum of its entries and the books sum to zero")
	out := map[string]int64{}
	for _, p := range []string{"instant_payout", "funding_clearing", "payout_clearing", "platform_fees", "frame_fees", "merchant"} {
		b, err := ledger.Balance(ctx, tn, p, "USD")
		require.NoError(t, err)
		out[p] = b
	}
	require.LessOrEqual(t, out["instant_payout"], int64(0), "the instant-payout balance is never overdrawn")
	return out
}

var payoutKeys = sorted("id", "object", "status", "speed", "amount", "currency", "payment_method", "payment_method_id",
	"account_id", "processor_fee", "merchant_fee", "customer_fee", "billing_agreement", "transfer_fee_plan",
	"failure_code", "failure_message", "metadata", "created", "updated", "succeeded", "failed", "livemode")

var scheduleKeys = sorted("id", "object", "amount", "currency", "cadence", "enabled", "next_run", "last_run",
	"created", "updated", "livemode")

var entryKeys = sorted("id", "object", "schedule", "amount", "currency", "source", "created", "livemode")
