package testenv

import "github.com/frame-oss/payments-server/models"

// CreateChargeIntent posts a charge intent body over REST; anything but
// 201 fails the test.
func (c *Client) CreateChargeIntent(body map[string]any) *models.ChargeIntent {
	c.env.T.Helper()
	return create[models.ChargeIntent](c, "charge intent", "/v1/charge_intents", body)
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
