package auth

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// Merchant is the platform that owns accounts and credentials. Merchants are
// made by an operator (`server merchants create`), not through the API.
// Products and DisabledCapabilities are names the capability rules interpret;
// the platform only stores them.
type Merchant struct {
	bun.BaseModel `bun:"table:merchants,alias:m"`

	ID                   uuid.UUID      `bun:"id,pk,type:uuid" json:"id"`
	Name                 string         `bun:"name" json:"name"`
	Products             []string       `bun:"products,array" json:"products"`
	DisabledCapabilities []string       `bun:"disabled_capabilities,array" json:"disabled_capabilities"`
	Created              wire.Timestamp `bun:"created" json:"created"`
	Updated              wire.Timestamp `bun:"updated" json:"updated"`
}

// APIKey is a stored credential: only its SHA-256 hash and a display prefix.
type APIKey struct {
	bun.BaseModel `bun:"table:api_keys,alias:k"`

	ID         uuid.UUID      `bun:"id,pk,type:uuid" json:"id"`
	MerchantID uuid.UUID      `bun:"merchant_id,type:uuid" json:"merchant_id"`
	Livemode   bool           `bun:"livemode" json:"livemode"`
	Kind       string         `bun:"kind" json:"kind"`
	Hash       []byte         `bun:"hash" json:"-"`
	Prefix     string         `bun:"prefix" json:"prefix"`
	Created    wire.Timestamp `bun:"created" json:"created"`
	ExpiresAt  wire.Timestamp `bun:"expires_at,nullzero" json:"expires_at"`
	RevokedAt  wire.Timestamp `bun:"revoked_at,nullzero" json:"revoked_at"`

	Merchant *Merchant `bun:"rel:belongs-to,join:merchant_id=id" json:"-"`
}

// SessionSecret is the stored hash of an onboarding or checkout session's
// client secret, a credential scoped to one account, or of a charge
// intent's client secret, scoped to its intent (SessionID; its account,
// when the intent has one).
type SessionSecret struct {
	bun.BaseModel `bun:"table:session_secrets,alias:ss"`
	wire.Tenant

	ID        uuid.UUID      `bun:"id,pk,type:uuid"`
	Kind      string         `bun:"kind"`
	SessionID uuid.UUID      `bun:"session_id,type:uuid"`
	AccountID uuid.UUID      `bun:"account_id,type:uuid,nullzero"`
	Hash      []byte         `bun:"hash"`
	ExpiresAt wire.Timestamp `bun:"expires_at"`
	RevokedAt wire.Timestamp `bun:"revoked_at,nullzero"`
	Created   wire.Timestamp `bun:"created"`
	// ClockTime is read with a session's secret (not stored): the
	// frozen_time of the test clock its account is bound to, nil when the
	// account is on none.
	ClockTime *time.Time `bun:"clock_time,scanonly"`

	Merchant *Merchant `bun:"rel:belongs-to,join:merchant_id=id"`
}
