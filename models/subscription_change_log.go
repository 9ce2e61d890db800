package models

import (
	"encoding/json"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type subscriptionChangeLogKind struct{}

func (subscriptionChangeLogKind) objectName() string { return "subscription_change_log" }

// SubscriptionChangeLog records one product swap of a subscription (spec
// doc 2 §2.4; API-DECISIONS §9: swaps only), with the plan before and
// after.
type SubscriptionChangeLog struct {
	bun.BaseModel `bun:"table:subscription_change_logs,alias:scl"`
	Tenant

	ID                uuid.UUID                         `bun:"id,pk,type:uuid" json:"id"`
	Object            Object[subscriptionChangeLogKind] `bun:"-" json:"object"`
	SubscriptionID    uuid.UUID                         `bun:"subscription_id,type:uuid" json:"subscription" sdk:"subscription_id"`
	ProrationBehavior ProrationBehavior                 `bun:"proration_behavior" json:"proration_behavior"`
	PreviousProductID uuid.UUID                         `bun:"previous_product_id,type:uuid" json:"previous_product"`
	NewProductID      uuid.UUID                         `bun:"new_product_id,type:uuid" json:"new_product"`
	PreviousPlan      *Plan                             `bun:"previous_plan,type:jsonb" json:"previous_plan"`
	CurrentPlan       *Plan                             `bun:"current_plan,type:jsonb" json:"current_plan"`
	// ChangeType is the SDK's change_type, the same for every log.
	ChangeType    ProductSwap    `bun:"-" json:"-" sdk:"change_type"`
	EffectiveDate wire.Timestamp `bun:"effective_date,type:timestamptz" json:"effective_date" sdk:"changed_at"`
	Created       wire.Timestamp `bun:"created,type:timestamptz" json:"created"`
}

// ChangeTypeProductSwap is the SDK's change_type of every change log: logs
// are written for product swaps only.
const ChangeTypeProductSwap = "product_swap"

// ProductSwap is a change log's change_type: its only value,
// ChangeTypeProductSwap.
type ProductSwap struct{}

// MarshalJSON writes ChangeTypeProductSwap.
func (ProductSwap) MarshalJSON() ([]byte, error) { return json.Marshal(ChangeTypeProductSwap) }
