package testenv

import "github.com/frame-oss/payments-server/models"

// CreateThreeDSIntent starts a 3-D Secure verification of the card
// paymentMethodID (POST /v1/3ds/intents) and returns the intent: issued
// with a challenge for a challenge card, verified at once for a
// frictionless one. The card is the whole request, so there is no spec.
// Anything but 201 fails the test; a test of the create's refusals or wire
// shape posts its own body.
func (c *Client) CreateThreeDSIntent(paymentMethodID string) *models.ThreeDSIntent {
	c.env.T.Helper()
	return create[models.ThreeDSIntent](c, "3-D Secure intent", "/v1/3ds/intents",
		map[string]any{"payment_method_id": paymentMethodID})
}
