package usage

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
)

// usageWindow is a window a usage invoice billed for one payer and event
// name (usage_invoice_windows): no other invoice bills it again, and no
// event is recorded into it.
type usageWindow struct {
	bun.BaseModel `bun:"table:usage_invoice_windows,alias:uw"`
	models.Tenant

	InvoiceID   uuid.UUID  `bun:"invoice_id,pk,type:uuid"`
	EventName   string     `bun:"event_name,pk"`
	CustomerID  *uuid.UUID `bun:"customer_id,type:uuid"`
	AccountID   *uuid.UUID `bun:"account_id,type:uuid"`
	PeriodStart time.Time  `bun:"period_start"`
	PeriodEnd   time.Time  `bun:"period_end"`
}
