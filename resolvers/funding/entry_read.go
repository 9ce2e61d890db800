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

// RecentEntries is how many entries PayoutFundingSchedule.entries shows per
// schedule, newest first.
const RecentEntries = 100

// EntriesOfSchedules reads the newest entries (RecentEntries) of many
// schedules in one statement: the schedule's entries edge's batch.
func (s *Service) EntriesOfSchedules(ctx context.Context, scheduleIDs []string) ([][]*models.FundingEntry, []error) {
	return childrenOf(ctx, scheduleIDs, func(t *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]*models.FundingEntry, error) {
		sc := t.Scope()
		var rows []*models.FundingEntry
		err := t.Select(&rows).Where("fe.schedule_id IN (?)", bun.In(want)).
			Where("fe.id IN (SELECT id FROM (SELECT x.id, row_number() OVER (PARTITION BY x.schedule_id ORDER BY x.created DESC, x.id DESC) AS n "+
				"FROM payout_funding_entries AS x WHERE x.merchant_id = ? AND x.livemode = ? AND x.schedule_id IN (?)) AS ranked WHERE n <= ?)",
				sc.MerchantID, sc.Livemode, bun.In(want), RecentEntries).
			OrderExpr("fe.created DESC, fe.id DESC").Scan(ctx)
		out := map[uuid.UUID][]*models.FundingEntry{}
		for _, r := range rows {
			out[*r.ScheduleID] = append(out[*r.ScheduleID], r)
		}
		return out, err
	}, s)
}
