package funding

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Schedules is the funding schedule family of the area: reads from the
// kit, Create and Update (schedule_write.go), and Run, the sweep's step
// (schedule_run.go).
type Schedules struct {
	op.Reader[models.FundingSchedule, op.NoFilter]
	svc *Service
}

var scheduleTable = &op.Table[models.FundingSchedule]{Resource: "payout_funding_schedule", Allow: secretOnly}

func newSchedules(s *Service) *Schedules {
	return &Schedules{Reader: op.Read[models.FundingSchedule, op.NoFilter](s.Kit, scheduleTable), svc: s}
}
