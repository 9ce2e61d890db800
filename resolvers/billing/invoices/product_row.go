package invoices

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// productRowColumns are the columns of a product billing reads.
var productRowColumns = []string{"id", "name", "purchase_type", "recurring", "default_price", "active", "created", "livemode"}

// ProductRow reads a product as billing bills it (a subscription's
// product, a meter's pricing product); nil when the id
// names none of the tenant's products.
func ProductRow(ctx context.Context, t *store.Tenant, id uuid.UUID) (*models.Product, error) {
	pr := new(models.Product)
	err := t.Select(pr).Column(productRowColumns...).Where("pr.id = ?", id).Scan(ctx)
	if store.IsNoRows(err) {
		return nil, nil
	}
	return pr, err
}

// ProductRows reads the products ids name as ProductRow does, in one
// statement, by id; an id naming none of the tenant's products is not in
// the map.
func ProductRows(ctx context.Context, t *store.Tenant, ids []uuid.UUID) (map[uuid.UUID]*models.Product, error) {
	var rows []*models.Product
	if err := t.Select(&rows).Column(productRowColumns...).Where("pr.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]*models.Product, len(rows))
	for _, pr := range rows {
		byID[pr.ID] = pr
	}
	return byID, nil
}
