package models

import (
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type webhookEndpointKind struct{}

func (webhookEndpointKind) objectName() string { return "webhook_endpoint" }

// Enabled is the SDK's enabled member of an endpoint (sdk tag of its
// Status): whether it receives deliveries.
func (s WebhookEndpointStatus) Enabled() bool { return s == WebhookEndpointActive }

// WebhookEndpoint is where a merchant receives events (API-DECISIONS §5).
// Its signing secret renders only in the responses of create and
// rotate_secret (RevealSecret).
type WebhookEndpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints,alias:w"`
	Tenant

	ID          uuid.UUID                   `bun:"id,pk,type:uuid" json:"id"`
	Object      Object[webhookEndpointKind] `bun:"-" json:"object"`
	URL         string                      `bun:"url" json:"url"`
	Status      WebhookEndpointStatus       `bun:"status" json:"status" sdk:"enabled,derived:Enabled"`
	Description *string                     `bun:"description" json:"description"`
	EventCodes  []string                    `bun:"event_codes,array" json:"event_codes"`
	Secret      *string                     `bun:"-" json:"secret,omitempty"`
	Created     wire.Timestamp              `bun:"created" json:"created"`
	Updated     wire.Timestamp              `bun:"updated" json:"updated"`

	// The signing secrets as stored: sealed under the server secret
	// (secrets.Source.Seal); the current one, and the one a rotation
	// replaced while its grace lasts.
	SealedSecret          string         `bun:"secret" json:"-"`
	PreviousSealedSecret  *string        `bun:"previous_secret" json:"-"`
	PreviousSecretExpires wire.Timestamp `bun:"previous_secret_expires,nullzero" json:"-"`
	Deleted               wire.Timestamp `bun:"deleted,nullzero" json:"-"`
	// FailingSince is the time of the first failed attempt since the last
	// successful one (zero while the endpoint answers): an endpoint that
	// keeps failing is disabled (docs/webhooks.md).
	FailingSince wire.Timestamp `bun:"failing_since,nullzero" json:"-"`
	// Kind is url for every endpoint the API manages; a listen session's
	// endpoint is not one of them (it reads as missing).
	Kind WebhookEndpointKind `bun:"kind,nullzero,default:'url'" json:"-"`
}

// RevealSecret makes the endpoint render its signing secret: only the
// responses of create and rotate_secret do.
func (e *WebhookEndpoint) RevealSecret(plain string) { e.Secret = &plain }

// DeletedWebhookEndpoint is the answer of a delete.
type DeletedWebhookEndpoint struct {
	ID      uuid.UUID                   `json:"id"`
	Object  Object[webhookEndpointKind] `json:"object"`
	Deleted bool                        `json:"deleted"`
}

// CreateWebhookEndpointInput is POST /v1/webhook_endpoints.
type CreateWebhookEndpointInput struct {
	URL         *string  `json:"url"`
	EventCodes  []string `json:"event_codes"`
	Description *string  `json:"description"`
}

// UpdateWebhookEndpointInput is PATCH /v1/webhook_endpoints/{id}; absent
// members stay as they are.
type UpdateWebhookEndpointInput struct {
	URL         *string                `json:"url"`
	EventCodes  []string               `json:"event_codes"`
	Description *string                `json:"description"`
	Status      *WebhookEndpointStatus `json:"status"`
}

// RotateWebhookSecretInput is POST /v1/webhook_endpoints/{id}/rotate_secret.
type RotateWebhookSecretInput struct {
	// GracePeriodSeconds is how long the replaced secret keeps signing
	// deliveries (default 24 hours, at most 7 days; 0 ends it at once).
	GracePeriodSeconds *int `json:"grace_period_seconds"`
}

// Limits of an endpoint's input.
const (
	maxEventCodes          = 100
	maxEndpointDescription = 500
	// DefaultSecretGrace is how long a rotated-out secret keeps signing.
	DefaultSecretGrace = 24 * 60 * 60
	maxSecretGrace     = 7 * 24 * 60 * 60
)

// Validate checks a create request in the caller's mode, every problem at
// once. An unknown event code makes it a 400 (API-DECISIONS §5).
func (in *CreateWebhookEndpointInput) Validate(livemode bool) error {
	var f apierr.Fields
	checkEndpointURL(&f, in.URL, livemode, true)
	if in.EventCodes == nil {
		f.Add("event_codes", "is required")
	}
	unknown := checkEventCodes(&f, in.EventCodes, true)
	if in.Description != nil {
		checkText(&f, "description", in.Description, maxEndpointDescription, false)
	}
	return endpointInputError(&f, unknown)
}

// Validate checks an update request in the caller's mode.
func (in *UpdateWebhookEndpointInput) Validate(livemode bool) error {
	var f apierr.Fields
	checkEndpointURL(&f, in.URL, livemode, false)
	var unknown []string
	if in.EventCodes != nil {
		unknown = checkEventCodes(&f, in.EventCodes, true)
	}
	if in.Description != nil {
		checkText(&f, "description", in.Description, maxEndpointDescription, false)
	}
	checkOneOf(&f, "status", (*string)(in.Status), string(WebhookEndpointActive), string(WebhookEndpointDisabled))
	return endpointInputError(&f, unknown)
}

// Validate checks a rotation request.
func (in *RotateWebhookSecretInput) Validate() error {
	var f apierr.Fields
	if g := in.GracePeriodSeconds; g != nil && (*g < 0 || *g > maxSecretGrace) {
		f.Addf("grace_period_seconds", "must be between 0 and %d", maxSecretGrace)
	}
	return f.Err()
}

// Grace is the grace period asked for, in seconds.
func (in *RotateWebhookSecretInput) Grace() int {
	if in == nil || in.GracePeriodSeconds == nil {
		return DefaultSecretGrace
	}
	return *in.GracePeriodSeconds
}

func checkEndpointURL(f *apierr.Fields, u *string, livemode, required bool) {
	if !checkText(f, "url", u, webhook.MaxURLLength, required) || u == nil {
		return
	}
	if p := webhook.URLProblem(*u, livemode); p != "" {
		f.Add("url", p)
	}
}

// checkEventCodes reports malformed codes as field problems and returns the
// well-formed ones that are neither AllEvents nor a declared event type.
func checkEventCodes(f *apierr.Fields, codes []string, required bool) []string {
	if codes == nil {
		return nil
	}
	if len(codes) == 0 && required {
		f.Add("event_codes", "must name at least one event type")
	}
	if len(codes) > maxEventCodes {
		f.Addf("event_codes", "must hold at most %d codes", maxEventCodes)
		return nil
	}
	var unknown []string
	for i := range codes {
		if !checkText(f, "event_codes", &codes[i], 100, true) {
			continue
		}
		if codes[i] != webhook.AllEvents && !events.IsDeclared(codes[i]) {
			unknown = append(unknown, codes[i])
		}
	}
	return unknown
}

// endpointInputError is the 400 parameter_invalid of unknown event codes
// (carrying every other problem too), else the usual 422.
func endpointInputError(f *apierr.Fields, unknown []string) error {
	if len(unknown) == 0 {
		return f.Err()
	}
	f.Addf("event_codes", "contains unknown event codes: %s", strings.Join(unknown, ", "))
	e := apierr.As(f.Err())
	e.Status, e.Code, e.Param = http.StatusBadRequest, apierr.CodeParameterInvalid, "event_codes"
	e.Message = "Unknown event codes: " + strings.Join(unknown, ", ") + " (see docs/webhooks.md for the catalogue)"
	return e
}

// CheckListenEventCodes checks the event filter of a listen session (the
// CLI's --events): empty is every type; an unknown code is refused as an
// endpoint's is (400 parameter_invalid).
func CheckListenEventCodes(codes []string) error {
	var f apierr.Fields
	return endpointInputError(&f, checkEventCodes(&f, codes, false))
}

// NormalizeEventCodes removes duplicates, keeping the first occurrence.
func NormalizeEventCodes(codes []string) []string {
	out := make([]string, 0, len(codes))
	seen := make(map[string]bool, len(codes))
	for _, c := range codes {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
