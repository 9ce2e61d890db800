package models

import (
	"encoding/json"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type webhookDeliveryKind struct{}

func (webhookDeliveryKind) objectName() string { return "webhook_delivery" }

type webhookAttemptKind struct{}

func (webhookAttemptKind) objectName() string { return "webhook_delivery_attempt" }

// WebhookDelivery is one event on its way to one endpoint, with every
// attempt made (docs/webhooks.md).
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries,alias:d"`
	Tenant

	ID             uuid.UUID                   `bun:"id,pk,type:uuid" json:"id"`
	Object         Object[webhookDeliveryKind] `bun:"-" json:"object"`
	EndpointID     uuid.UUID                   `bun:"endpoint_id,type:uuid" json:"webhook_endpoint_id"`
	EventID        uuid.UUID                   `bun:"event_id,type:uuid" json:"event_id"`
	EventType      string                      `bun:"event_type" json:"event_type"`
	Status         WebhookDeliveryStatus       `bun:"status" json:"status"`
	AttemptCount   int                         `bun:"attempt_count" json:"attempt_count"`
	LastStatusCode *int                        `bun:"last_status_code" json:"last_status_code"`
	LastError      *string                     `bun:"last_error" json:"last_error"`
	NextAttempt    wire.Timestamp              `bun:"next_attempt,nullzero" json:"next_attempt_at"`
	Attempts       []*WebhookAttempt           `bun:"-" json:"attempts"`
	Created        wire.Timestamp              `bun:"created" json:"created"`
	Updated        wire.Timestamp              `bun:"updated" json:"updated"`

	Seq      int64 `bun:"seq,scanonly" json:"-"`
	Enqueued bool  `bun:"enqueued" json:"-"`
	// LoadedAttempts receives the attempts selected in the delivery's own
	// statement as one JSON column; the read moves them into Attempts.
	LoadedAttempts json.RawMessage `bun:"attempts_json,scanonly" json:"-"`
}

// WebhookAttempt is one POST of a delivery: what the endpoint answered (or
// why it could not), how long it took, and the start of its answer.
type WebhookAttempt struct {
	bun.BaseModel `bun:"table:webhook_delivery_attempts,alias:at"`
	Tenant

	ID              uuid.UUID                  `bun:"id,pk,type:uuid" json:"id"`
	Object          Object[webhookAttemptKind] `bun:"-" json:"object"`
	DeliveryID      uuid.UUID                  `bun:"delivery_id,type:uuid" json:"webhook_delivery_id"`
	Attempt         int                        `bun:"attempt" json:"attempt"`
	URL             string                     `bun:"url" json:"url"`
	StatusCode      *int                       `bun:"status_code" json:"status_code"`
	Error           *string                    `bun:"error" json:"error"`
	LatencyMS       int                        `bun:"latency_ms" json:"latency_ms"`
	ResponseExcerpt *string                    `bun:"response_excerpt" json:"response_excerpt"`
	Created         wire.Timestamp             `bun:"created" json:"created"`
}

// ResendEventInput is POST /v1/events/{id}/resend.
type ResendEventInput struct {
	// WebhookEndpointID resends to that endpoint only (it must be active);
	// without it, to every active endpoint subscribed to the event's type.
	WebhookEndpointID *string `json:"webhook_endpoint_id"`
}

// ResentEvent is the answer of POST /v1/events/{id}/resend: the event,
// and what the resend did (the real service's CLI prints Status).
type ResentEvent struct {
	*events.Event
	Status ResendStatus `json:"status"`
}

// ResendStatusOf is the status of a resend that made deliveries.
func ResendStatusOf(deliveries []*WebhookDelivery) ResendStatus {
	switch {
	case len(deliveries) == 0:
		return ResendNoDestinations
	case slices.ContainsFunc(deliveries, func(d *WebhookDelivery) bool { return d.Status == WebhookDeliveryPending }):
		return ResendQueued
	}
	return ResendSkipped
}
