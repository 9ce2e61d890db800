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

// secretOnly is who may call the customer operations: the spec gives the
// other credentials none of them (doc 2 §5).
var secretOnly = []auth.Kind{auth.SecretKey}

// GetCustomer returns one customer with its payment methods, in one
// statement. A deleted customer is still retrievable (rendered deleted).
func (s *Service) GetCustomer(ctx context.Context, id string) (*models.Customer, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("customer", id)
	}
	c := new(models.Customer)
	if err := withPaymentMethods(s.DB.Tenant(p.Scope).Select(c)).Where("cu.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("customer", id)
		}
		return nil, err
	}
	return c, hydrate([]*models.Customer{c})
}

// CustomersByIDs reads many customers as GetCustomer reads one, in one
// statement.
func (s *Service) CustomersByIDs(ctx context.Context, idList []string) ([]*models.Customer, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "customer", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Customer, error) {
		var rows []*models.Customer
		if err := withPaymentMethods(s.DB.Tenant(p.Scope).Select(&rows)).Where("cu.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		if err := hydrate(rows); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Customer, len(rows))
		for _, c := range rows {
			found[c.ID] = c
		}
		return found, nil
	})
}

// ListCustomers is the one list of customers, newest first, deleted ones
// left out: the REST list (email filter), REST search and the GraphQL
// connection. One statement whatever the page size.
func (s *Service) ListCustomers(ctx context.Context, f CustomerFilter, lp op.ListParams) (op.Page[*models.Customer], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Customer]{}, err
	}
	if err := f.validate(); err != nil {
		return op.Page[*models.Customer]{}, err
	}
	q := withPaymentMethods(f.apply(s.DB.Tenant(p.Scope).Select((*models.Customer)(nil))))
	page, err := op.List(ctx, q, "cu", lp, func(c *models.Customer) op.Position {
		return op.Position{Created: c.Created.Time, ID: c.ID}
	})
	if err != nil {
		return page, err
	}
	return page, hydrate(page.Items)
}

// lockCustomer reads one customer of the caller's scope and locks its row,
// which serializes every write to the customer and to its payment methods'
// status, or answers 404.
func lockCustomer(ctx context.Context, t *store.Tenant, id string) (*models.Customer, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("customer", id)
	}
	c := new(models.Customer)
	if err := t.Select(c).Where("cu.id = ?", uid).For("UPDATE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("customer", id)
		}
		return nil, err
	}
	return c, nil
}

// customerPaymentMethods loads the payment methods of a locked customer,
// in a statement of its own after the lock (READ COMMITTED: a statement
// that waited for the lock would not see what the previous writer
// committed).
func customerPaymentMethods(ctx context.Context, t *store.Tenant, customerID uuid.UUID) ([]*models.PaymentMethod, error) {
	var pms []*models.PaymentMethod
	err := t.Select(&pms).Where("pm.customer_id = ?", customerID).OrderExpr("pm.created DESC, pm.id DESC").Scan(ctx)
	return pms, err
}
