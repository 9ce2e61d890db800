package usage

import (
	"context"

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

var meteringEventTable = &op.Table[models.MeteringEvent]{Resource: "billing_metric_event"}

func newMeteringEvents(s *Service) *MeteringEvents {
	es := &MeteringEvents{Reader: op.Read[models.MeteringEvent, MeteringEventFilter](s.Kit, meteringEventTable), svc: s}
	es.group = &ingestGroup{es: es}
	return es
}
