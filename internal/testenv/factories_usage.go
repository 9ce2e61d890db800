package testenv

import (
	"encoding/json"

	"github.com/frame-oss/payments-server/models"
)

// MeteringEventSpec describes a metering event: usage of one event name
// for one payer, under a reference unique for the name.
type MeteringEventSpec struct {
	EventName string
	Reference string
	// Customer or Account is the payer (exactly one).
	Customer, Account string
	Value             string // a decimal, sent as a JSON number
	// Timestamp is an ISO 8601 instant; "" lets the server take the
	// payer's time.
	Timestamp        string
	MarkupPercentage string
	Metadata         map[string]string
}

// MeteringEvent is an event of value 1 named eventName for customer.
func MeteringEvent(eventName, reference, customer string) MeteringEventSpec {
	return MeteringEventSpec{EventName: eventName, Reference: reference, Customer: customer, Value: "1"}
}

// WithValue sets the event's value.
func (s MeteringEventSpec) WithValue(v string) MeteringEventSpec { s.Value = v; return s }

// At sets the event's timestamp (ISO 8601).
func (s MeteringEventSpec) At(ts string) MeteringEventSpec { s.Timestamp = ts; return s }

// RESTBody renders s as a POST /v1/billing/metering_events body.
func (s MeteringEventSpec) RESTBody() map[string]any {
	body := fields{"metadata": s.Metadata, "event_name": s.EventName, "reference": s.Reference, "customer": s.Customer, "account": s.Account,
		"timestamp": s.Timestamp}.set()
	if s.Value != "" {
		body["value"] = json.Number(s.Value)
	}
	if s.MarkupPercentage != "" {
		body["markup_percentage"] = json.Number(s.MarkupPercentage)
	}
	return body
}

// CreateMeteringEvent records spec's event over REST; anything but 201
// fails the test.
func (c *Client) CreateMeteringEvent(spec MeteringEventSpec) *models.MeteringEvent {
	c.env.T.Helper()
	return create[models.MeteringEvent](c, "metering event", "/v1/billing/metering_events", spec.RESTBody())
}

// PriceMeter configures the meter of eventName to price one unit at
// product's default_price, with aggregation ("" keeps sum).
func (c *Client) PriceMeter(eventName, product, aggregation string) *models.BillingMeter {
	c.env.T.Helper()
	body := fields{"event_name": eventName, "product": product, "aggregation": aggregation}.set()
	return create[models.BillingMeter](c, "billing meter", "/v1/billing/metering", body)
}
