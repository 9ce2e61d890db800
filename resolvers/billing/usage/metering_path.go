package usage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/idempotency"
	"github.com/frame-oss/payments-server/models"
)

// Metering serves /v1/billing/metering, a path the spec does not name
// and the real service's SDKs use two ways (docs/billing.md, "One path,
// two clients"): the Ruby SDK configures and reads a meter there, the
// Node SDK records and reads usage there. A body carrying a usage
// record's members (a value, a payer) records a metering event through
// the same ingest as /v1/billing/metering_events; any other configures
// the event name's meter. An id names a meter or a usage record, read and
// changed as what it names.
type Metering struct {
	meters *Meters
	events *MeteringEvents
}

// Create configures a meter, or records a usage record when the body is
// one. A usage record needs no reference (the Node SDK's create sends
// none): without one, a request with an Idempotency-Key is recorded under
// a reference derived from the key, so a retry counts once even after
// the key's stored answer has expired, and one without a key counts each
// time it is sent, as a new record.
func (m *Metering) Create(ctx context.Context, in *models.MeteringInput) (*models.Metering, error) {
	if !in.RecordsUsage() {
		meter, err := m.meters.Create(ctx, in.Meter())
		return meterAnswer(meter, err)
	}
	ev, err := m.events.Create(ctx, in.Event(usageReference(ctx)))
	return recordAnswer(ev, err)
}

// Get reads the meter or the usage record id names (404 naming a meter
// when neither is the caller's).
func (m *Metering) Get(ctx context.Context, id string) (*models.Metering, error) {
	meter, err := m.meters.Get(ctx, id)
	if !missing(err) {
		return meterAnswer(meter, err)
	}
	ev, err := m.events.Get(ctx, id)
	if missing(err) {
		return nil, apierr.NotFound(meterTable.Resource, id)
	}
	return recordAnswer(ev, err)
}

// Update changes the meter id names, or corrects the usage record it
// names, as PATCH of each does; a member of the other kind is refused.
// What id names is read first (a meter's read, then an event's), since
// the body is judged as that kind's: an id of neither is 404 whatever the
// body holds.
func (m *Metering) Update(ctx context.Context, id string, in *models.UpdateMeteringInput) (*models.Metering, error) {
	_, err := m.meters.Get(ctx, id)
	if !missing(err) {
		if err != nil {
			return nil, err
		}
		return meterAnswer(m.meters.Update(ctx, id, in.Meter()))
	}
	if _, err := m.events.Get(ctx, id); err != nil {
		if missing(err) {
			return nil, apierr.NotFound(meterTable.Resource, id)
		}
		return nil, err
	}
	return recordAnswer(m.events.Update(ctx, id, in.Event()))
}

// usageReference is the reference of a usage record sent without one:
// derived from the request's Idempotency-Key (a digest, so any key fits
// a reference's length), else new.
func usageReference(ctx context.Context) string {
	if key := idempotency.From(ctx); key != nil {
		sum := sha256.Sum256([]byte(key.Key))
		return "idempotency_" + hex.EncodeToString(sum[:16])
	}
	return "record_" + uuid.NewString()
}

// missing reports whether err is the 404 of an id that names no object
// of the kind read.
func missing(err error) bool {
	e := apierr.As(err)
	return e != nil && e.Code == apierr.CodeResourceMissing
}

func meterAnswer(meter *models.BillingMeter, err error) (*models.Metering, error) {
	if err != nil {
		return nil, err
	}
	return &models.Metering{Meter: meter}, nil
}

func recordAnswer(ev *models.MeteringEvent, err error) (*models.Metering, error) {
	if err != nil {
		return nil, err
	}
	return &models.Metering{Record: models.UsageRecordOf(ev)}, nil
}
