package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/capability"
)

type capabilityKind struct{}

func (capabilityKind) objectName() string { return "capability" }

// Capability is a permission on an account (spec doc 1 §2.2). Its
// currently_due and errors are derived on every read; its timestamps travel
// as ISO 8601 strings, as the spec states for this resource.
type Capability struct {
	bun.BaseModel `bun:"table:capabilities,alias:c"`
	Tenant

	ID               uuid.UUID              `bun:"id,pk,type:uuid" json:"id"`
	Object           Object[capabilityKind] `bun:"-" json:"object"`
	AccountID        uuid.UUID              `bun:"account_id,type:uuid" json:"account_id"`
	Name             capability.Name        `bun:"name" json:"name"`
	Status           capability.Status      `bun:"status" json:"status"`
	DisabledReason   *string                `bun:"disabled_reason" json:"disabled_reason"`
	IneligibleReason *string                `bun:"-" json:"ineligible_reason"`
	CurrentlyDue     []string               `bun:"-" json:"currently_due"`
	Errors           []capability.Error     `bun:"-" json:"errors"`
	Created          ISOTime                `bun:"created" json:"created"`
	Updated          ISOTime                `bun:"updated" json:"updated"`
	Disabled         ISOTime                `bun:"disabled,nullzero" json:"disabled"`
}
