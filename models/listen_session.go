package models

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// ListenSession is the state of a listen session of the real service's
// CLI (`frame listen`): a transient webhook destination whose deliveries
// travel over the CLI's websocket. Its id is its webhook endpoint's (kind
// listen_session), which holds its signing secret and event filter. It is
// never rendered: the CLI learns of it through the websocket
// (docs/webhooks.md, "Local webhooks with the CLI").
type ListenSession struct {
	bun.BaseModel `bun:"table:listen_sessions,alias:ls"`
	Tenant

	ID uuid.UUID `bun:"id,pk,type:uuid"`
	// TokenHash is the SHA-256 of the token the CLI resumes the session
	// with.
	TokenHash     []byte `bun:"token_hash"`
	SkipEndpoints bool   `bun:"skip_endpoints"`
	// Holder is the websocket connection holding the session (nil while
	// none does).
	Holder  *uuid.UUID     `bun:"holder,type:uuid"`
	Expires wire.Timestamp `bun:"expires"`
	Ended   wire.Timestamp `bun:"ended,nullzero"`
	Created wire.Timestamp `bun:"created"`
	Updated wire.Timestamp `bun:"updated"`
}

// ListenSessionMessage is the message a listen session's subscription
// receives once per subscribe (the real service's CLI refuses any other
// member): its signing secret, its endpoint and the token to resume it,
// and Replayed on a resumed session.
type ListenSessionMessage struct {
	Type         string    `json:"type"` // "session"
	Secret       string    `json:"whsec"`
	EndpointID   uuid.UUID `json:"endpoint_id"`
	SessionToken string    `json:"session_token"`
	Replayed     bool      `json:"replayed,omitempty"`
}

// ListenEvent is one delivery to a listen session, as the CLI accepts it:
// exactly these four members, and these five headers. Payload is the event
// exactly as an endpoint receives it; the signature is over its bytes,
// under the session's secret.
type ListenEvent struct {
	DeliveryID uuid.UUID       `json:"webhook_message_id"`
	EventType  string          `json:"event_type"`
	Headers    ListenHeaders   `json:"headers"`
	Payload    json.RawMessage `json:"payload"`
}

// ListenHeaders are a listen event's headers: those a webhook endpoint
// receives, but the timestamped signature the CLI does not accept.
type ListenHeaders struct {
	Event       string `json:"X-Frame-Event"`
	Signature   string `json:"X-Frame-Signature"`
	WebhookID   string `json:"X-Frame-Webhook-Id"`
	UserAgent   string `json:"User-Agent"`
	ContentType string `json:"Content-Type"`
}

// ListenAck is the CLI's acknowledgement of a listen event: what its
// forward-to URL answered (Status 0: nothing was forwarded, or the URL
// could not be reached; ResponseBody then says why).
type ListenAck struct {
	DeliveryID   string  `json:"webhook_message_id"`
	Status       float64 `json:"status"`
	ResponseBody string  `json:"response_body"`
	DurationMS   float64 `json:"duration_ms"`
}
