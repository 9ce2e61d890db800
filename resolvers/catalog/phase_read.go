package catalog

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Phases is the family of a product's phases, always read and changed
// through their product: List, Get and OfProducts, and Create, Update,
// BulkUpdate and Delete (phase_ops.go) under the product's row lock.
type Phases struct {
	// OfProducts reads the phases of a batch of products in one
	// statement, in ordinal order (Product.phases).
	OfProducts op.Batch[[]*models.ProductPhase]
	svc        *Service
}

var phaseTable = &op.Table[models.ProductPhase]{Resource: "phase"}

func newPhases(s *Service) *Phases {
	return &Phases{svc: s, OfProducts: (&op.Children[models.ProductPhase]{Table: phaseTable, Parent: "product",
		Column: "product_id", Order: "?TableAlias.ordinal ASC"}).Bind(s.Kit)}
}

// List returns a product's phases in ordinal order (404 for an unknown
// product).
func (ps *Phases) List(ctx context.Context, productID string) ([]*models.ProductPhase, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	pr, err := productTable.Get(ctx, ps.svc.Kit, productID)
	if err != nil {
		return nil, err
	}
	return phasesOf(ctx, ps.svc.DB.Tenant(p.Scope), pr.ID)
}

// Get returns one phase of a product.
func (ps *Phases) Get(ctx context.Context, productID, id string) (*models.ProductPhase, error) {
	phases, err := ps.List(ctx, productID)
	if err != nil {
		return nil, err
	}
	return findPhase(phases, id)
}

// phasesOf reads the phases of one product in t, in ordinal order: after
// the product's lock in a write, so that they are the ones the lock
// protects.
func phasesOf(ctx context.Context, t *store.Tenant, productID uuid.UUID) ([]*models.ProductPhase, error) {
	phases := []*models.ProductPhase{}
	err := phaseTable.Select(t, nil, &phases).Where("ph.product_id = ?", productID).OrderExpr("ph.ordinal").Scan(ctx)
	return phases, err
}

func findPhase(phases []*models.ProductPhase, id string) (*models.ProductPhase, error) {
	for _, ph := range phases {
		if ph.ID.String() == id {
			return ph, nil
		}
	}
	return nil, apierr.NotFound("phase", id)
}

// write runs rule on a product's phases under the product's lock (which
// serializes every change to them), then checks the ordering rules on the
// result.
func (ps *Phases) write(ctx context.Context, spec op.Spec, productID string,
	rule func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error)) ([]*models.ProductPhase, error) {
	return op.Write(ctx, ps.svc.Kit, spec, func(ctx context.Context, w *op.W) ([]*models.ProductPhase, error) {
		pr, err := productTable.Lock(ctx, w, productID, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		phases, err := phasesOf(ctx, w.Tx, pr.ID)
		if err != nil {
			return nil, err
		}
		return rule(ctx, w, pr, phases)
	})
}
