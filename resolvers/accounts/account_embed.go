package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// In reads accounts with their capabilities and derived members,
// in the caller's tenant or transaction t, one statement: for objects of
// other areas that embed their account (a charge intent's `account`),
// rendered as a secret key sees them. Ids not found are left out.
func (as *Accounts) In(ctx context.Context, t *store.Tenant, idList []uuid.UUID) (map[uuid.UUID]*models.Account, error) {
	s := as.svc
	found := make(map[uuid.UUID]*models.Account, len(idList))
	if len(idList) == 0 {
		return found, nil
	}
	var rows []*models.Account
	if err := accountTable.Select(t, nil, &rows).Where("a.id IN (?)", bun.In(idList)).Scan(ctx); err != nil {
		return nil, err
	}
	if err := accountTable.LoadEmbedded(rows...); err != nil {
		return nil, err
	}
	s.hydrate(ctx, rows)
	for _, a := range rows {
		a.SetVisibility(models.VisibleAll)
		found[a.ID] = a
	}
	return found, nil
}
