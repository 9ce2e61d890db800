package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type identityVerificationKind struct{}

func (identityVerificationKind) objectName() string { return "identity_verification" }

// IdentityVerification is one KYC run against the account's identity data
// (spec doc 1 §2.5). It starts pending and concludes asynchronously.
type IdentityVerification struct {
	bun.BaseModel `bun:"table:identity_verifications,alias:iv"`
	Tenant

	ID             uuid.UUID                        `bun:"id,pk,type:uuid" json:"id"`
	Object         Object[identityVerificationKind] `bun:"-" json:"object"`
	AccountID      uuid.UUID                        `bun:"account_id,type:uuid" json:"account"`
	Status         RunStatus                        `bun:"status" json:"status"`
	FailureType    *IdentityFailureType             `bun:"failure_type" json:"failure_type"`
	Retriable      *bool                            `bun:"retriable" json:"retriable"`
	Category       *VerificationCategory            `bun:"category" json:"category"`
	Completed      wire.Timestamp                   `bun:"completed,nullzero" json:"completed"`
	ReviewOpened   wire.Timestamp                   `bun:"review_opened,nullzero" json:"review_opened"`
	ReviewResolved wire.Timestamp                   `bun:"review_resolved,nullzero" json:"review_resolved"`
	Created        wire.Timestamp                   `bun:"created" json:"created"`

	Provider              string         `bun:"provider" json:"-"`
	Subject               string         `bun:"subject" json:"-"`
	CreatorShieldFindings bool           `bun:"creator_shield_findings" json:"-"`
	Updated               wire.Timestamp `bun:"updated" json:"-"`
}
