package invoices

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// ProductRow reads a product as billing bills it (a subscription's
// product, a meter's pricing product); nil when the id
// names none of the tenant's products.
func ProductRow(ctx context.Context, t *store.Tenant, id uuid.UUID) (*models.Product, error) {
	pr := new(models.Product)
	err := t.Select(pr).Column("id", "name", "purchase_type", "recurring", "default_price", "active", "created", "livemode").
		Where("pr.id = ?", id).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, nil
	}
	return pr, err
}
