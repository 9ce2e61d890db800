package seed

import "github.com/frame-oss/payments-server/internal/platform/events"

// countEvents counts the sandbox's events, in one statement scoped to the
// merchant and mode: the summary's events are the difference a run makes,
// however many events the sandbox held before.
func (s *seeder) countEvents() (int, error) {
	n, err := s.svc.Webhooks.DB.Tenant(s.scope).Select((*events.Event)(nil)).Count(s.ctx)
	return int(n), err
}
