package money

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

// GetRefund returns one refund (one statement).
func (s *Service) GetRefund(ctx context.Context, id string) (*models.Refund, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("refund", id)
	}
	r := new(models.Refund)
	if err := s.DB.Tenant(p.Scope).Select(r).Where("rf.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("refund", id)
		}
		return nil, err
	}
	return r, nil
}

// RefundFilter filters the refund list: by the transfer or the charge
// intent refunded (mutually exclusive), or by the charge.
type RefundFilter struct {
	Transfer, ChargeIntent, Charge *string
}

// ListRefunds is the one list of refunds, newest first.
func (s *Service) ListRefunds(ctx context.Context, f RefundFilter, lp op.ListParams) (op.Page[*models.Refund], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Refund]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.Refund)(nil))
	var fields apierr.Fields
	if f.Transfer != nil && f.ChargeIntent != nil {
		fields.Add("charge_intent", "is not accepted with transfer")
	}
	for _, c := range []struct {
		param, column string
		v             *string
	}{{"transfer", "transfer_id", f.Transfer}, {"charge_intent", "charge_intent_id", f.ChargeIntent}, {"charge", "charge_id", f.Charge}} {
		if c.v == nil {
			continue
		}
		uid, ok := ids.Parse(*c.v)
		if !ok {
			fields.Add(c.param, "is not a valid id")
			continue
		}
		q = q.Where("?TableAlias.? = ?", bun.Ident(c.column), uid)
	}
	if err := fields.Err(); err != nil {
		return op.Page[*models.Refund]{}, err
	}
	return op.List(ctx, q, "rf", lp, func(r *models.Refund) op.Position {
		return op.Position{Created: r.Created.Time, ID: r.ID}
	})
}

// RefundsByIDs reads many refunds in one statement.
func (s *Service) RefundsByIDs(ctx context.Context, idList []string) ([]*models.Refund, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "refund", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Refund, error) {
		var rows []*models.Refund
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("rf.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Refund, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// RecentChildren bounds the refunds and disputes an object lists in the
// graph (Transfer.refunds, Charge.refunds...): the newest ones.
const RecentChildren = 100

// RefundsOfCharges reads the newest refunds of many charges in one
// statement (GraphQL's Charge.refunds).
func (s *Service) RefundsOfCharges(ctx context.Context, idList []string) ([][]*models.Refund, []error) {
	return childrenOf(ctx, s, idList, "charge", "refunds", "rf", "charge_id", func(r *models.Refund) *uuid.UUID { return &r.ChargeID })
}

// RefundsOfTransfers reads the newest refunds of many transfers in one
// statement (GraphQL's Transfer.refunds).
func (s *Service) RefundsOfTransfers(ctx context.Context, idList []string) ([][]*models.Refund, []error) {
	return childrenOf(ctx, s, idList, "transfer", "refunds", "rf", "transfer_id", func(r *models.Refund) *uuid.UUID { return r.TransferID })
}

// childrenOf reads, in one statement, the newest RecentChildren rows of
// table (aliased alias) whose column names each of the parents idList,
// newest first; every parent gets a list, empty when it has none.
func childrenOf[T any](ctx context.Context, s *Service, idList []string, resource, table, alias, column string,
	parent func(T) *uuid.UUID) ([][]T, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, resource, err, nil, func(want []uuid.UUID) (map[uuid.UUID][]T, error) {
		sc := p.Scope
		var rows []T
		if err := s.DB.Tenant(sc).Select(&rows).Where("?.? IN (?)", bun.Ident(alias), bun.Ident(column), bun.In(want)).
			Where("?.id IN (SELECT id FROM (SELECT x.id, row_number() OVER (PARTITION BY x.? ORDER BY x.created DESC, x.id DESC) AS n "+
				"FROM ? AS x WHERE x.merchant_id = ? AND x.livemode = ? AND x.? IN (?)) AS ranked WHERE n <= ?)",
				bun.Ident(alias), bun.Ident(column), bun.Ident(table), sc.MerchantID, sc.Livemode, bun.Ident(column), bun.In(want),
				RecentChildren).
			OrderExpr("?.created DESC, ?.id DESC", bun.Ident(alias), bun.Ident(alias)).Scan(ctx); err != nil {
			return nil, err
		}
		out := make(map[uuid.UUID][]T, len(want))
		for _, id := range want {
			out[id] = []T{}
		}
		for _, r := range rows {
			if id := parent(r); id != nil {
				out[*id] = append(out[*id], r)
			}
		}
		return out, nil
	})
}
