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

// GetEntry returns one funding entry.
func (s *Service) GetEntry(ctx context.Context, id string) (*models.FundingEntry, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("payout_funding_entry", id)
	}
	e := new(models.FundingEntry)
	if err := s.DB.Tenant(p.Scope).Select(e).Where("fe.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("payout_funding_entry", id)
		}
		return nil, err
	}
	return e, nil
}

// EntriesByIDs reads many entries in one statement.
func (s *Service) EntriesByIDs(ctx context.Context, idList []string) ([]*models.FundingEntry, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "payout_funding_entry", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.FundingEntry, error) {
		var rows []*models.FundingEntry
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("fe.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.FundingEntry, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// EntryFilter filters the entry list: one schedule's runs, or one source.
type EntryFilter struct {
	ScheduleID, Source *string
}

// ListEntries is the one list of funding entries, newest first.
func (s *Service) ListEntries(ctx context.Context, f EntryFilter, lp op.ListParams) (op.Page[*models.FundingEntry], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.FundingEntry]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.FundingEntry)(nil))
	var fs apierr.Fields
	if f.ScheduleID != nil {
		if uid, ok := ids.Parse(*f.ScheduleID); ok {
			q = q.Where("fe.schedule_id = ?", uid)
		} else {
			fs.Add("schedule", "is not a valid id")
		}
	}
	if f.Source != nil {
		if *f.Source == models.FundingSourceManualPush || *f.Source == models.FundingSourceSchedule {
			q = q.Where("fe.source = ?", *f.Source)
		} else {
			fs.Add("source", "must be manual_push or schedule")
		}
	}
	if err := fs.Err(); err != nil {
		return op.Page[*models.FundingEntry]{}, err
	}
	return op.List(ctx, q, "fe", lp, func(e *models.FundingEntry) op.Position {
		return op.Position{Created: e.Created.Time, ID: e.ID}
	})
}
