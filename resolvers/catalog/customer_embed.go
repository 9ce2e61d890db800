package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// CustomersIn reads customers as GetCustomer renders them (with their
// payment methods), in the caller's tenant or transaction t, one
// statement: for objects of other areas that embed their customer (a
// charge intent's `customer`), rendered as a secret key sees them. Ids not
// found are left out.
func CustomersIn(ctx context.Context, t *store.Tenant, idList []uuid.UUID) (map[uuid.UUID]*models.Customer, error) {
	found := make(map[uuid.UUID]*models.Customer, len(idList))
	if len(idList) == 0 {
		return found, nil
	}
	var rows []*models.Customer
	if err := withPaymentMethods(t.Select(&rows)).Where("cu.id IN (?)", bun.In(idList)).Scan(ctx); err != nil {
		return nil, err
	}
	if err := hydrate(rows); err != nil {
		return nil, err
	}
	for _, c := range rows {
		found[c.ID] = c
	}
	return found, nil
}
