package models

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// SubscriptionPendingLine is a proration line waiting for the next cycle's
// invoice (create_prorations): written by a subscription's update, taken
// into its renewal's invoice, released when a test clock's deletion
// deletes that draft. It is never rendered on its own (the invoice's line
// items are), so it has no wire members.
type SubscriptionPendingLine struct {
	bun.BaseModel `bun:"table:subscription_pending_lines,alias:pl"`
	Tenant

	ID             uuid.UUID  `bun:"id,pk,type:uuid"`
	SubscriptionID uuid.UUID  `bun:"subscription_id,type:uuid"`
	Kind           string     `bun:"kind"`
	ProductID      uuid.UUID  `bun:"product_id,type:uuid"`
	Description    string     `bun:"description"`
	Amount         int64      `bun:"amount"`
	PeriodStart    time.Time  `bun:"period_start"`
	PeriodEnd      time.Time  `bun:"period_end"`
	Proportion     string     `bun:"proportion"`
	InvoiceID      *uuid.UUID `bun:"invoice_id,type:uuid"`
	Created        time.Time  `bun:"created"`
}
