package seed

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// countEvents counts the sandbox's events, through the event list: the
// summary's events are the difference a run makes.
func (s *seeder) countEvents() (int, error) {
	n := 0
	for page := 1; ; page++ {
		p, err := s.svc.Webhooks.Events.List(s.ctx, webhooks.EventFilter{},
			op.ListParams{PageParams: models.PageParams{Page: page, PerPage: 100}})
		if err != nil {
			return 0, err
		}
		n += len(p.Items)
		if !p.HasMore {
			return n, nil
		}
	}
}
