package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// GetProduct returns one product.
func (s *Service) GetProduct(ctx context.Context, id string) (*models.Product, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return selectProduct(ctx, s.DB.Tenant(p.Scope), id, false)
}

// ProductsByIDs reads many products in one statement.
func (s *Service) ProductsByIDs(ctx context.Context, idList []string) ([]*models.Product, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "product", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Product, error) {
		var rows []*models.Product
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("pr.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Product, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// ListProducts is the one list of products, newest first: the REST list,
// REST search ({meta, products}) and the GraphQL connection.
func (s *Service) ListProducts(ctx context.Context, f ProductFilter, lp op.ListParams) (op.Page[*models.Product], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Product]{}, err
	}
	q := f.apply(s.DB.Tenant(p.Scope).Select((*models.Product)(nil)))
	return op.List(ctx, q, "pr", lp, func(r *models.Product) op.Position {
		return op.Position{Created: r.Created.Time, ID: r.ID}
	})
}

// selectProduct reads (and with lock, locks) one product or answers 404.
// The product's lock serializes changes to its phases.
func selectProduct(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.Product, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("product", id)
	}
	pr := new(models.Product)
	q := t.Select(pr).Where("pr.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("product", id)
		}
		return nil, err
	}
	return pr, nil
}
