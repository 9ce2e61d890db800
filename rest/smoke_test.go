package rest_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestSmokeCreateAndRead(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.Client(env.Keys.Sandbox.Secret)
	resp := c.Post("/v1/accounts", map[string]any{
		"type": "individual",
		"profile": map[string]any{"individual": map[string]any{
			"name": map[string]any{"first_name": "Ada", "last_name": "Lovelace"}, "email": "ada@example.com",
			"phone": map[string]any{"number": "200-100-1695", "country_code": "1"}, "ssn": "123-45-6789",
			"address": map[string]any{"line1": "1 Main St", "city": "Austin", "state": "TX", "postal_code": "78701", "country": "us"}}},
		"capabilities": []string{"kyc_prefill", "card_send"},
		"metadata":     map[string]any{"k": "v"},
	})
	require.Equal(t, 201, resp.Status, string(resp.Body))
	t.Log(string(resp.Body))
	id := resp.JSON()["id"].(string)
	got := c.Get("/v1/accounts/" + id)
	require.Equal(t, 200, got.Status, string(got.Body))
	list := c.Get("/v1/accounts")
	require.Equal(t, 200, list.Status, string(list.Body))
	t.Log(string(list.Body), list.Statements)
	ev := c.Get("/v1/events")
	t.Log(string(ev.Body))
}
