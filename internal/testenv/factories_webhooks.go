package testenv

import (
	"slices"

	"github.com/frame-oss/payments-server/models"
)

// WebhookEndpointSpec describes a webhook endpoint (POST
// /v1/webhook_endpoints).
type WebhookEndpointSpec struct {
	URL         string
	EventCodes  []string
	Description string
}

// WebhookEndpoint is an endpoint at url receiving codes, or every event
// ("*") when none are given.
func WebhookEndpoint(url string, codes ...string) WebhookEndpointSpec {
	if len(codes) == 0 {
		codes = []string{"*"}
	}
	return WebhookEndpointSpec{URL: url, EventCodes: slices.Clone(codes)}
}

// RESTBody renders s as a POST /v1/webhook_endpoints body.
func (s WebhookEndpointSpec) RESTBody() map[string]any {
	return fields{"url": s.URL, "event_codes": s.EventCodes, "description": s.Description}.set()
}

// CreateWebhookEndpoint creates spec's endpoint over REST; anything but 201
// fails the test. The answer's Secret is the signing secret, shown only on
// create.
func (c *Client) CreateWebhookEndpoint(spec WebhookEndpointSpec) *models.WebhookEndpoint {
	c.env.T.Helper()
	return create[models.WebhookEndpoint](c, "webhook endpoint", "/v1/webhook_endpoints", spec.RESTBody())
}
