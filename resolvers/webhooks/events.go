package webhooks

import (
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// EventWebhookEndpointDisabled announces an endpoint the server disabled
// because every attempt to it failed for DeliveryConfig.DisableAfter
// (endpoint_health.go); a merchant's own PATCH emits nothing.
var EventWebhookEndpointDisabled = events.Declare("webhook_endpoint.disabled",
	"the server disables a webhook endpoint whose deliveries kept failing")

// Events is the event family of the area: the event log's reads from the
// kit (every write appends to it), and Resend (event_resend.go).
type Events struct {
	op.Reader[events.Event, EventFilter]
	svc *Service
}

var eventTable = &op.Table[events.Event]{Resource: "event"}

func newEvents(s *Service) *Events {
	return &Events{Reader: op.Read[events.Event, EventFilter](s.Kit, eventTable), svc: s}
}

// EventFilter is what the event lists filter by.
type EventFilter struct {
	Type *string `query:"type" filter:"type"`
}

// ProblemEventType is the answer to a type filter outside the event
// catalogue.
const ProblemEventType = "is not an event type (docs/webhooks.md lists the catalogue)"

// Check refuses a type no event can have: the catalogue is closed (only
// events.Declare makes a type), so an unknown or misspelt type is a
// mistake to name, not a filter that matches nothing.
func (f EventFilter) Check(problems *apierr.Fields) {
	if f.Type != nil && !events.IsDeclared(*f.Type) {
		problems.Add("type", ProblemEventType)
	}
}
