package catalog

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Phases is the family of a product's phases, always read and changed
// through their product: List, Get and OfProducts, and Create, Update,
// BulkUpdate and Delete (phase_ops.go) under the product's row lock. It is
// the phase family (phase_family.go) over the products table.
type Phases struct {
	// OfProducts reads the phases of a batch of products in one
	// statement, in ordinal order (Product.phases).
	OfProducts op.Batch[[]*models.ProductPhase]
	family     *productPhaseFamily
}

type productPhaseFamily = phaseFamily[models.ProductPhase, *models.ProductPhase, models.Product, *models.UpdatePhaseInput]

var phaseTable = &op.Table[models.ProductPhase]{Resource: "phase",
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.ColumnExpr(models.ProductPhaseIntervalColumns) }}

func newPhases(s *Service) *Phases {
	f := (&productPhaseFamily{kit: s.Kit, phases: phaseTable, parents: productTable, column: "product_id",
		parentParam: "id", name: "product.phase", ordinalKey: "product_phases_ordinal_key",
		columns: []string{"name", "period_count", "amount", "discount_percentage", "metadata", "updated"},
		events:  &phaseEvents{EventProductPhaseCreated, EventProductPhaseUpdated, EventProductPhaseDeleted},
		params: func(productID, id string, in any) any {
			return phaseParams{ProductID: productID, ID: id, Input: in}
		},
		check: func(_ *models.Product, ph *models.ProductPhase, e *models.UpdatePhaseInput, f *apierr.Fields, prefix string) {
			e.Validate(f, prefix, ph.PricingType)
			e.CheckMergedMetadata(f, prefix, ph.Metadata)
		},
		apply: func(ph *models.ProductPhase, e *models.UpdatePhaseInput) {
			e.ApplyTo(&ph.PhaseTerms)
			e.ApplyMetadataTo(ph)
		},
		id: func(e *models.UpdatePhaseInput) *string {
			if e == nil {
				return nil
			}
			return e.ID
		},
	}).bind()
	return &Phases{family: f, OfProducts: f.Of}
}

// List returns a product's phases in ordinal order (404 for an unknown
// product).
func (ps *Phases) List(ctx context.Context, productID string) ([]*models.ProductPhase, error) {
	return ps.family.list(ctx, productID)
}

// Get returns one phase of a product.
func (ps *Phases) Get(ctx context.Context, productID, id string) (*models.ProductPhase, error) {
	return ps.family.get(ctx, productID, id)
}

// ByIDs reads phases by their own ids, one phase or one resource_missing
// per id, through the table a product's phases are read from (node(id:)).
func (ps *Phases) ByIDs(ctx context.Context, idList []string) ([]*models.ProductPhase, []error) {
	return phaseTable.ByIDs(ctx, ps.family.kit, idList)
}
