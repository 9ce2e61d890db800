package money

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// GetDispute returns one dispute (one statement).
func (s *Service) GetDispute(ctx context.Context, id string) (*models.Dispute, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return selectDispute(ctx, s.DB.Tenant(p.Scope), id, false)
}

// DisputeFilter filters the dispute list by charge and by charge intent.
type DisputeFilter struct {
	Charge, ChargeIntent, Transfer *string
}

// ListDisputes is the one list of disputes, newest first.
func (s *Service) ListDisputes(ctx context.Context, f DisputeFilter, lp op.ListParams) (op.Page[*models.Dispute], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.Dispute]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.Dispute)(nil))
	var fields apierr.Fields
	for _, c := range []struct {
		param, column string
		v             *string
	}{{"charge", "charge_id", f.Charge}, {"charge_intent", "charge_intent_id", f.ChargeIntent}, {"transfer", "transfer_id", f.Transfer}} {
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
		return op.Page[*models.Dispute]{}, err
	}
	page, err := op.List(ctx, q, "dp", lp, func(d *models.Dispute) op.Position {
		return op.Position{Created: d.Created.Time, ID: d.ID}
	})
	for _, d := range page.Items {
		d.Derive()
	}
	return page, err
}

// DisputesByIDs reads many disputes in one statement.
func (s *Service) DisputesByIDs(ctx context.Context, idList []string) ([]*models.Dispute, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "dispute", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Dispute, error) {
		var rows []*models.Dispute
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("dp.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Dispute, len(rows))
		for _, d := range rows {
			d.Derive()
			found[d.ID] = d
		}
		return found, nil
	})
}

// DisputesOfCharges reads the disputes of many charges in one statement
// (GraphQL's Charge.disputes: at most one each).
func (s *Service) DisputesOfCharges(ctx context.Context, idList []string) ([][]*models.Dispute, []error) {
	out, errs := childrenOf(ctx, s, idList, "charge", "disputes", "dp", "charge_id", func(d *models.Dispute) *uuid.UUID { return &d.ChargeID })
	return deriveDisputes(out), errs
}

// DisputesOfTransfers reads the disputes of many transfers in one
// statement (GraphQL's Transfer.disputes).
func (s *Service) DisputesOfTransfers(ctx context.Context, idList []string) ([][]*models.Dispute, []error) {
	out, errs := childrenOf(ctx, s, idList, "transfer", "disputes", "dp", "transfer_id", func(d *models.Dispute) *uuid.UUID { return d.TransferID })
	return deriveDisputes(out), errs
}

func deriveDisputes(lists [][]*models.Dispute) [][]*models.Dispute {
	for _, l := range lists {
		for _, d := range l {
			d.Derive()
		}
	}
	return lists
}
