package funding

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of the area (the spec and the real service's SDK name none).
// Each carries its object as REST renders it.
var (
	EventPayoutCreated   = events.Declare("payout.created", "a payout from the instant-payout balance is created")
	EventPayoutSucceeded = events.Declare("payout.succeeded", "a payout is sent")
	EventPayoutFailed    = events.Declare("payout.failed", "a payout's destination declines it (recorded, nothing moves)")

	EventScheduleCreated = events.Declare("payout_funding_schedule.created", "a payout funding schedule is created")
	EventScheduleUpdated = events.Declare("payout_funding_schedule.updated", "a payout funding schedule changes")

	EventEntryCreated = events.Declare("payout_funding_entry.created", "the instant-payout balance is funded (a top-up or a schedule's run)")
)
