package funding

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// RecentEntries is how many entries PayoutFundingSchedule.entries shows per
// schedule, newest first.
const RecentEntries = 100

// Entries is the funding entry family of the area: reads from the kit, and
// TopUp (top_up.go). The sweep writes a schedule's entries
// (schedule_run.go).
type Entries struct {
	op.Reader[models.FundingEntry, EntryFilter]
	// OfSchedules reads the newest RecentEntries entries of a batch of
	// schedules in one statement (PayoutFundingSchedule.entries).
	OfSchedules op.Batch[[]*models.FundingEntry]
	svc         *Service
}

var entryTable = &op.Table[models.FundingEntry]{Resource: "payout_funding_entry", Allow: secretOnly}

func newEntries(s *Service) *Entries {
	return &Entries{Reader: op.Read[models.FundingEntry, EntryFilter](s.Kit, entryTable),
		OfSchedules: (&op.Children[models.FundingEntry]{Table: entryTable, Parent: "payout_funding_schedule", Column: "schedule_id", Limit: RecentEntries}).Bind(s.Kit),
		svc:         s}
}

// EntryFilter filters the entry list: one schedule's runs, or one source.
type EntryFilter struct {
	ScheduleID *string               `query:"schedule" filter:"schedule_id,id"`
	Source     *models.FundingSource `query:"source" filter:"source,enum"`
}
