package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type capabilityKind struct{}

func (capabilityKind) objectName() string { return "capability" }

// CapabilityStatuses is the closed set of capability statuses,
// StepStatuses that of an onboarding step's, and StepKeys that of the
// steps themselves, in the order an owner is guided through them
// (internal/domain/capability declares the three types).
var (
	CapabilityStatuses = Enum(capability.StatusUnrequested, capability.StatusPending, capability.StatusActive,
		capability.StatusDisabled)
	StepStatuses = Enum(capability.StepCompleted, capability.StepPending, capability.StepFailed)
	StepKeys     = Enum(capability.StepPhoneVerification, capability.StepIDVerification, capability.StepKYCPrefill,
		capability.StepBeneficialOwners, capability.StepPaymentMethod, capability.StepBankAccount,
		capability.StepGeoCompliance, capability.StepTermsOfService)
)

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
	Created          wire.ISOTime           `bun:"created,type:timestamptz" json:"created"`
	Updated          wire.ISOTime           `bun:"updated,type:timestamptz" json:"updated"`
	Disabled         wire.ISOTime           `bun:"disabled,nullzero,type:timestamptz" json:"disabled"`
}

// CapabilityRequest is the outcome of requesting capabilities: the
// capabilities asked for (with their dependencies), and whether any was
// newly created (REST answers 201 then, 200 otherwise).
type CapabilityRequest struct {
	Capabilities []*Capability `json:"capabilities"`
	Created      bool          `json:"created"`
}
