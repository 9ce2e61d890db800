package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// payer is a buyer account with a card.
type payer struct {
	account map[string]any
	card    *models.PaymentMethod
}

func newPayer(t *testing.T, c *testenv.Client, number string) payer {
	t.Helper()
	a := c.CreateAccount(testenv.Individual())
	return payer{account: a, card: c.CreateAccountCard(id(a), number)}
}

// charge is a POST /v1/transfers body charging p's card.
func (p payer) charge(amount int64, extra map[string]any) map[string]any {
	return merge(map[string]any{"amount": amount, "account_id": id(p.account),
		"source_payment_method_id": id(p.card), "confirm": true}, extra)
}

// createTransfer posts body and requires 201. The transfer tests that
// assert on a transfer's wire members keep it as JSON.
func createTransfer(t *testing.T, c *testenv.Client, body map[string]any) map[string]any {
	t.Helper()
	r := c.Post("/v1/transfers", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// charging is a confirmed charge of amount to p's card, for
// Client.CreateTransfer.
func (p payer) charging(amount int64) testenv.ChargeSpec {
	return testenv.Charge(id(p.account), id(p.card), amount)
}

// latestCharge is the id of the charge a transfer names, read from a
// response's latest_charge or a model's LatestCharge, so setup transfers
// from Client.CreateTransfer and transfers under test are read alike.
func latestCharge(t *testing.T, tr any) string {
	t.Helper()
	if m, ok := tr.(map[string]any); ok {
		chID, ok := m["latest_charge"].(string)
		require.True(t, ok, "transfer %s names its charge: %v", id(tr), m["latest_charge"])
		return chID
	}
	model, ok := tr.(*models.Transfer)
	require.True(t, ok, "a transfer is a response or a *models.Transfer, not a %T", tr)
	require.NotNil(t, model.LatestCharge, "transfer %s names its charge", model.ID)
	return model.LatestCharge.String()
}

// requireBooksHold checks the ledger's invariants for the default
// merchant's sandbox and returns the balance of each party in USD.
func requireBooksHold(t *testing.T, f *fixture) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	tn := f.env.DB.Tenant(scopeOf(f))
	drift, err := ledger.Audit(ctx, tn)
	require.NoError(t, err)
	require.Empty(t, drift, "every balance equals the sum of its entries and the books sum to zero")
	out := map[string]int64{}
	for _, p := range []string{"card_clearing", "ach_clearing", "merchant", "platform_fees", "frame_fees"} {
		b, err := ledger.Balance(ctx, tn, p, "USD")
		require.NoError(t, err)
		out[p] = b
	}
	return out
}

func num(v any) int64 { return int64(v.(float64)) }
