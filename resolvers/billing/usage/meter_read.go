package usage

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Meters is the family of billing meters (docs/billing.md, "Usage
// billing"): how each event name's usage is aggregated and priced. Reads
// come from the kit; Create configures a name's meter, Update changes it
// (meter_write.go). The secret key's, as every operation of the area.
type Meters struct {
	op.Reader[models.BillingMeter, MeterFilter]
	svc *Service
}

// MeterFilter narrows the list of meters.
type MeterFilter struct {
	EventName *string `query:"event_name" filter:"event_name"`
}

var meterTable = &op.Table[models.BillingMeter]{Resource: "billing_meter"}

func newMeters(s *Service) *Meters {
	return &Meters{Reader: op.Read[models.BillingMeter, MeterFilter](s.Kit, meterTable), svc: s}
}
