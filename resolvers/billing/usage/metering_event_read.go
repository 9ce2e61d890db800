package usage

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// MeteringEvents is the family of metering events (spec doc 2 §2.6,
// §4.6): reads from the kit, Create (metering_event_create.go) and Update
// (metering_event_update.go).
type MeteringEvents struct {
	op.Reader[models.MeteringEvent, MeteringEventFilter]
	svc *Service
	// afterIngest runs in the write of each event newly recorded for a
	// payer with an auto-charge threshold (usage_threshold*.go).
	afterIngest func(ctx context.Context, w *op.W, p *usagePayer, ev *models.MeteringEvent) error
	// group commits concurrent ingests together.
	group *ingestGroup
}

// MeteringEventFilter narrows the list of metering events.
type MeteringEventFilter struct {
	Customer  *string `query:"customer" filter:"customer_id,id"`
	Account   *string `query:"account" filter:"account_id,id"`
	EventName *string `query:"event_name" filter:"event_name"`
}

// meteringEventTable reads events with the invoice that billed them,
// derived from the windows of usage invoices (billedByColumn).
var meteringEventTable = &op.Table[models.MeteringEvent]{Resource: "billing_metric_event",
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr(billedByColumn) },
	Derive:  func(ev *models.MeteringEvent, _ time.Time) { settleInvoice(ev) }}

// billedByColumn is the invoice that billed an event (alias me), as
// metering_events_billed defines it: one primary key probe of the view
// per event read.
const billedByColumn = `(SELECT b.billed_by FROM metering_events_billed AS b
	WHERE b.merchant_id = me.merchant_id AND b.id = me.id) AS billed_by`

// settleInvoice makes the invoice an event answers the one that billed it:
// its own column names an auto-charge only, a usage invoice bills by its
// window.
func settleInvoice(ev *models.MeteringEvent) { ev.InvoiceID = ev.BilledBy }

func newMeteringEvents(s *Service) *MeteringEvents {
	es := &MeteringEvents{Reader: op.Read[models.MeteringEvent, MeteringEventFilter](s.Kit, meteringEventTable), svc: s}
	es.group = &ingestGroup{es: es}
	return es
}
