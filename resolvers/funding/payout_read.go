package funding

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

// RecentPayouts is how many payouts Account.payouts shows per account,
// newest first (the payouts query pages through all of them).
const RecentPayouts = 100

// GetPayout returns one payout.
func (s *Service) GetPayout(ctx context.Context, id string) (*models.Payout, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("payout", id)
	}
	po := new(models.Payout)
	if err := s.DB.Tenant(p.Scope).Select(po).Where("po.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("payout", id)
		}
		return nil, err
	}
	po.Derive()
	return po, nil
}

// PayoutsByIDs reads many payouts in one statement.
func (s *Service) PayoutsByIDs(ctx context.Context, idList []string) ([]*models.Payout, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "payout", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Payout, error) {
		var rows []*models.Payout
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("po.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Payout, len(rows))
		for _, r := range rows {
			r.Derive()
			found[r.ID] = r
		}
		return found, nil
	})
}

// PayoutFilter filters the payout list.
type PayoutFilter struct {
	AccountID, Status *string
}

func (f PayoutFilter) apply(q *bun.SelectQuery) (*bun.SelectQuery, error) {
	var fs apierr.Fields
	if f.Status != nil {
		switch *f.Status {
		case models.PayoutPending, models.PayoutSucceeded, models.PayoutFailed:
			q = q.Where("po.status = ?", *f.Status)
		default:
			fs.Add("status", "must be one of pending, succeeded, failed")
		}
	}
	if f.AccountID != nil {
		if uid, ok := ids.Parse(*f.AccountID); ok {
			q = q.Where("po.account_id = ?", uid)
		} else {
			fs.Add("account_id", "is not a valid id")
		}
	}
	return q, fs.Err()
}

// ListPayouts is the one list of payouts, newest first.
func (s *Service) ListPayouts(ctx context.Context, f PayoutFilter, lp op.ListParams) (op.Page[*models.Payout], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Payout]{}, err
	}
	q, err := f.apply(s.DB.Tenant(p.Scope).Select((*models.Payout)(nil)))
	if err != nil {
		return op.Page[*models.Payout]{}, err
	}
	page, err := op.List(ctx, q, "po", lp, func(po *models.Payout) op.Position {
		return op.Position{Created: po.Created.Time, ID: po.ID}
	})
	for _, po := range page.Items {
		po.Derive()
	}
	return page, err
}

// PayoutsOfAccounts reads the newest payouts (RecentPayouts) of many
// accounts in one statement: the Account.payouts edge's batch. An account
// the caller does not hold has none.
func (s *Service) PayoutsOfAccounts(ctx context.Context, accountIDs []string) ([][]*models.Payout, []error) {
	return childrenOf(ctx, accountIDs, func(t *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]*models.Payout, error) {
		sc := t.Scope()
		var rows []*models.Payout
		err := t.Select(&rows).Where("po.account_id IN (?)", bun.In(want)).
			Where("po.id IN (SELECT id FROM (SELECT x.id, row_number() OVER (PARTITION BY x.account_id ORDER BY x.created DESC, x.id DESC) AS n "+
				"FROM payouts AS x WHERE x.merchant_id = ? AND x.livemode = ? AND x.account_id IN (?)) AS ranked WHERE n <= ?)",
				sc.MerchantID, sc.Livemode, bun.In(want), RecentPayouts).
			OrderExpr("po.created DESC, po.id DESC").Scan(ctx)
		out := map[uuid.UUID][]*models.Payout{}
		for _, r := range rows {
			r.Derive()
			out[r.AccountID] = append(out[r.AccountID], r)
		}
		return out, err
	}, s)
}

// childrenOf answers a batch of parents' children (a dataloader's batch)
// in the parents' order, from one load of every parent id that parses;
// a parent the caller does not hold has none.
func childrenOf[T any](ctx context.Context, parentIDs []string, load func(*store.Tenant, []uuid.UUID) (map[uuid.UUID][]T, error),
	s *Service) ([][]T, []error) {
	out := make([][]T, len(parentIDs))
	errs := make([]error, len(parentIDs))
	fail := func(err error) ([][]T, []error) {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return fail(err)
	}
	uids := make([]uuid.UUID, len(parentIDs))
	var want []uuid.UUID
	for i, id := range parentIDs {
		if uid, ok := ids.Parse(id); ok {
			uids[i], want = uid, append(want, uid)
		}
	}
	found := map[uuid.UUID][]T{}
	if len(want) > 0 {
		if found, err = load(s.DB.Tenant(p.Scope), want); err != nil {
			return fail(err)
		}
	}
	for i := range parentIDs {
		out[i] = found[uids[i]]
		if out[i] == nil {
			out[i] = []T{}
		}
	}
	return out, errs
}
