package testenv

import "net/http"

// CreateChargeIntent posts a charge intent body over REST; anything but
// 201 fails the test.
func (c *Client) CreateChargeIntent(body map[string]any) map[string]any {
	t := c.env.T
	t.Helper()
	r := c.Post("/v1/charge_intents", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("testenv: create charge intent: want 201, got %d: %s", r.Status, r.Body)
	}
	return r.JSON()
}

// CardData is a charge intent's inline card (payment_method_data) of a
// test number.
func CardData(number string) map[string]any {
	b := map[string]any{"type": "card", "card_number": number, "exp_month": "12", "exp_year": "30", "cvc": "123"}
	if len(number) == 15 {
		b["cvc"] = "1234"
	}
	return b
}
