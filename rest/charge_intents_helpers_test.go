package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// chargeIntentKeys are the members of a charge intent as a secret key
// reads it (spec doc 2 §2.9, and the official SDKs' updated, next_action
// and receipt_email). subscription, invoice, latest_charge and shipping
// are left out while they have no value (docs/decisions.md, "Absent, not
// null"); client_secret is answered by the create alone.
var chargeIntentKeys = sorted("id", "object", "amount", "currency", "status", "client_secret", "authorization_mode",
	"description", "failure_description", "reference_id", "receipt_email", "customer_id", "customer", "account_id",
	"account", "payment_method", "metadata", "revenue_split", "order", "amount_captured", "amount_voided",
	"cart_data", "next_action", "created", "updated", "livemode")

// publicIntentKeys are what a publishable key or a client secret sees.
var publicIntentKeys = sorted("id", "object", "amount", "currency", "status", "authorization_mode",
	"description", "failure_description", "reference_id", "receipt_email", "customer_id", "account_id",
	"payment_method", "amount_captured", "amount_voided", "cart_data", "next_action", "created", "updated", "livemode")

// intentPayer is a customer with a card attached.
type intentPayer struct {
	customer *models.Customer
	card     *models.PaymentMethod
}

func newIntentPayer(t *testing.T, c *testenv.Client, number string) intentPayer {
	t.Helper()
	cu := c.CreateCustomer(testenv.Customer())
	return intentPayer{customer: cu, card: c.CreateCard(id(cu), number)}
}

// intent is a POST /v1/charge_intents body charging p's card, confirmed.
func (p intentPayer) intent(amount int64, extra map[string]any) map[string]any {
	return merge(map[string]any{"amount": amount, "currency": "usd", "customer": id(p.customer),
		"payment_method": id(p.card), "confirm": true}, extra)
}

// postIntent posts a charge intent action and requires 200.
func postIntent(t *testing.T, c *testenv.Client, intentID, action string, body any) map[string]any {
	t.Helper()
	r := c.Post("/v1/charge_intents/"+intentID+"/"+action, body)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON()
}

// charged is the latest charge of an intent.
func charged(ci map[string]any) map[string]any {
	ch, _ := ci["latest_charge"].(map[string]any)
	return ch
}

// createIntent posts a charge intent and returns the response as JSON: the
// charge intent tests assert on the created intent's wire shape, which a
// decoded model would hide.
func createIntent(t *testing.T, c *testenv.Client, body map[string]any) map[string]any {
	t.Helper()
	r := c.Post("/v1/charge_intents", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}
