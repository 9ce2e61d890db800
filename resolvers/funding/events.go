package funding

// Event types of the area (docs/webhooks.md's catalogue lists them; the
// spec and the real service's SDK name none). Each carries its object as
// REST renders it.
const (
	EventPayoutCreated   = "payout.created"
	EventPayoutSucceeded = "payout.succeeded"
	EventPayoutFailed    = "payout.failed"

	EventScheduleCreated = "payout_funding_schedule.created"
	EventScheduleUpdated = "payout_funding_schedule.updated"

	EventEntryCreated = "payout_funding_entry.created"
)

// Events lists every event type the area emits (a test keeps the webhook
// catalogue in step with it).
var Events = []string{EventPayoutCreated, EventPayoutSucceeded, EventPayoutFailed,
	EventScheduleCreated, EventScheduleUpdated, EventEntryCreated}
