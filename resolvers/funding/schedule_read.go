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

// GetSchedule returns one funding schedule.
func (s *Service) GetSchedule(ctx context.Context, id string) (*models.FundingSchedule, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return selectSchedule(ctx, s.DB.Tenant(p.Scope), id, false)
}

// SchedulesByIDs reads many schedules in one statement.
func (s *Service) SchedulesByIDs(ctx context.Context, idList []string) ([]*models.FundingSchedule, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "payout_funding_schedule", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.FundingSchedule, error) {
		var rows []*models.FundingSchedule
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("fs.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.FundingSchedule, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// ListSchedules is the one list of schedules of the caller's mode, newest
// first (spec doc 2 §4.7).
func (s *Service) ListSchedules(ctx context.Context, lp op.ListParams) (op.Page[*models.FundingSchedule], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.FundingSchedule]{}, err
	}
	return op.List(ctx, s.DB.Tenant(p.Scope).Select((*models.FundingSchedule)(nil)), "fs", lp,
		func(sc *models.FundingSchedule) op.Position { return op.Position{Created: sc.Created.Time, ID: sc.ID} })
}

func selectSchedule(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.FundingSchedule, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("payout_funding_schedule", id)
	}
	return scheduleByID(ctx, t, uid, id, lock)
}

func scheduleByID(ctx context.Context, t *store.Tenant, uid uuid.UUID, shown string, lock bool) (*models.FundingSchedule, error) {
	sc := new(models.FundingSchedule)
	q := t.Select(sc).Where("fs.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("payout_funding_schedule", shown)
		}
		return nil, err
	}
	return sc, nil
}
