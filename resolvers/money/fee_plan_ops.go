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

// CreateFeePlan creates a transfer fee plan with its items. Plans are
// immutable: a price change is a new plan and an agreement pointing at it.
func (s *Service) CreateFeePlan(ctx context.Context, in *models.CreateFeePlanInput) (*models.TransferFeePlan, error) {
	spec := op.Spec{Name: "transfer_fee_plan.create", Allow: secretOnly, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.TransferFeePlan, error) {
		p, err := in.Build()
		if err != nil {
			return nil, err
		}
		now := w.Now()
		p.ID, p.Created, p.Updated = ids.New(now), models.At(now), models.At(now)
		for _, it := range p.Items {
			it.ID, it.Created, it.Updated = ids.New(now), models.At(now), models.At(now)
		}
		if _, err := w.Tx.Insert(p).Exec(ctx); err != nil {
			return nil, err
		}
		return p, nil
	})
}

// GetFeePlan returns one plan.
func (s *Service) GetFeePlan(ctx context.Context, id string) (*models.TransferFeePlan, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return selectFeePlan(ctx, s.DB.Tenant(p.Scope), id)
}

// FeePlansByIDs reads many plans in one statement.
func (s *Service) FeePlansByIDs(ctx context.Context, idList []string) ([]*models.TransferFeePlan, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "transfer_fee_plan", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.TransferFeePlan, error) {
		var rows []*models.TransferFeePlan
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("fp.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.TransferFeePlan, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// ListFeePlans is the one list of plans, newest first.
func (s *Service) ListFeePlans(ctx context.Context, lp op.ListParams) (op.Page[*models.TransferFeePlan], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.TransferFeePlan]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.TransferFeePlan)(nil))
	return op.List(ctx, q, "fp", lp, func(p *models.TransferFeePlan) op.Position {
		return op.Position{Created: p.Created.Time, ID: p.ID}
	})
}

func selectFeePlan(ctx context.Context, t *store.Tenant, id string) (*models.TransferFeePlan, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("transfer_fee_plan", id)
	}
	return selectFeePlanByID(ctx, t, uid, id)
}

func selectFeePlanByID(ctx context.Context, t *store.Tenant, uid uuid.UUID, shown string) (*models.TransferFeePlan, error) {
	p := new(models.TransferFeePlan)
	if err := t.Select(p).Where("fp.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("transfer_fee_plan", shown)
		}
		return nil, err
	}
	return p, nil
}
