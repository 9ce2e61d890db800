package testenv

import "github.com/frame-oss/payments-server/models"

// CreateChargeSession posts a charge session body over REST; anything but
// 201 fails the test.
func (c *Client) CreateChargeSession(body map[string]any) *models.ChargeSession {
	c.env.T.Helper()
	return create[models.ChargeSession](c, "charge session", "/v1/charge_sessions", body)
}

// CreateSonarSession posts a Sonar session body over REST; anything but
// 201 fails the test.
func (c *Client) CreateSonarSession(body map[string]any) *models.SonarSession {
	c.env.T.Helper()
	return create[models.SonarSession](c, "Sonar session", "/v1/sonar_sessions", body)
}

// CreatePaymentLinkSession posts a payment link session body over REST;
// anything but 201 fails the test.
func (c *Client) CreatePaymentLinkSession(body map[string]any) *models.PaymentLinkSession {
	c.env.T.Helper()
	return create[models.PaymentLinkSession](c, "payment link session", "/v1/payment_link_sessions", body)
}
