package subscriptions

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
)

// The rows subscriptions write beside their own: their pending proration
// lines.

// pendingLine is a proration line waiting for the next cycle's invoice
// (create_prorations).
type pendingLine struct {
	bun.BaseModel `bun:"table:subscription_pending_lines,alias:pl"`
	models.Tenant

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
