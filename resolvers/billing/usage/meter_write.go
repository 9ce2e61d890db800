package usage

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create configures the meter of an event name: it makes it when no event
// of the name was reported yet, and otherwise changes the one the first
// event made (same id), so configuring before or after the first event
// ends the same. Aggregation defaults to sum for a new meter.
func (ms *Meters) Create(ctx context.Context, in *models.CreateBillingMeterInput) (*models.BillingMeter, error) {
	spec := op.Spec{Name: "billing_meter.create", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, ms.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingMeter, error) {
		m, err := ensureMeter(ctx, w, *in.EventName)
		if err != nil {
			return nil, err
		}
		return m, ms.configure(ctx, w, m, in.Aggregation, in.Product, in.Metadata)
	})
}

// Update changes a meter's aggregation, product or metadata. What it
// changes applies to the usage invoices and reports made after it.
func (ms *Meters) Update(ctx context.Context, id string, in *models.UpdateBillingMeterInput) (*models.BillingMeter, error) {
	spec := op.Spec{Name: "billing_meter.update", Allow: secretOnly, Params: idInput[*models.UpdateBillingMeterInput]{ID: id, Input: in}, Check: in.Validate}
	return op.Write(ctx, ms.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingMeter, error) {
		m, err := meterTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		return m, ms.configure(ctx, w, m, in.Aggregation, in.Product, in.Metadata)
	})
}

// configure applies the asked changes to m (locked) and saves it.
// product "" stops pricing the meter.
func (ms *Meters) configure(ctx context.Context, w *op.W, m *models.BillingMeter, agg *models.MeterAggregation,
	product *string, meta models.MetadataInput) error {
	if agg != nil {
		m.Aggregation = *agg
	}
	if product != nil {
		m.ProductID = nil
		if *product != "" {
			id, err := pricingProduct(ctx, w, *product)
			if err != nil {
				return err
			}
			m.ProductID = &id
		}
	}
	m.Metadata = models.MergeMetadata(m.Metadata, meta)
	m.Updated = models.At(w.Now())
	_, err := w.Tx.Update(m).Column("aggregation", "product_id", "metadata", "updated").WherePK().Exec(ctx)
	return err
}

// pricingProduct checks that id is one of the tenant's products, active
// (422 on product otherwise): its default_price is the price of one unit.
func pricingProduct(ctx context.Context, w *op.W, raw string) (uuid.UUID, error) {
	id, ok := ids.Parse(raw)
	if ok {
		pr, err := invoices.ProductRow(ctx, w.Tx, id)
		if err != nil {
			return uuid.Nil, err
		}
		if pr != nil && pr.Active {
			return id, nil
		}
	}
	return uuid.Nil, apierr.FieldError("product", "is not an active product of this merchant and mode")
}

// ensureMeter returns the meter of name, locked, making it (sum, not
// priced) when there is none: two writers making it at once end with the
// same row.
func ensureMeter(ctx context.Context, w *op.W, name string) (*models.BillingMeter, error) {
	for {
		var rows []models.BillingMeter
		if err := w.Tx.Select(&rows).Where("bm.event_name = ?", name).For("UPDATE").Scan(ctx); err != nil {
			return nil, err
		}
		if len(rows) > 0 {
			return &rows[0], nil
		}
		if _, err := insertMeter(ctx, w, name); err != nil {
			return nil, err
		}
	}
}

// insertMeter makes the meter of name (sum, not priced) unless another
// writer did, and returns its id either way (nil when the row another
// writer made is not yet visible to this statement).
func insertMeter(ctx context.Context, w *op.W, name string) (*uuid.UUID, error) {
	now := w.Now()
	m := &models.BillingMeter{ID: ids.New(now), EventName: name, Aggregation: models.AggregateSum,
		Metadata: models.Metadata{}, Created: models.At(now), Updated: models.At(now)}
	res, err := w.Tx.Insert(m).On("CONFLICT (merchant_id, livemode, event_name) DO NOTHING").Exec(ctx)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, nil
	}
	return &m.ID, nil
}

// idInput is the idempotency fingerprint of an update: the object's id
// and the input.
type idInput[T any] struct {
	ID    string `json:"id"`
	Input T      `json:"input"`
}
