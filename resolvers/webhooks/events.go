package webhooks

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// EventFilter is what the event lists filter by.
type EventFilter struct {
	Type *string
}

func (f EventFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Type != nil {
		q = q.Where("e.type = ?", *f.Type)
	}
	return q
}

// ListEvents is the one list of events, newest first: the REST list and
// the GraphQL connection. One statement.
func (s *Service) ListEvents(ctx context.Context, f EventFilter, lp op.ListParams) (op.Page[*events.Event], error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return op.Page[*events.Event]{}, err
	}
	q := f.apply(s.DB.Tenant(p.Scope).Select((*events.Event)(nil)))
	return op.List(ctx, q, "e", lp, func(e *events.Event) op.Position {
		return op.Position{Created: e.Created.Time, ID: e.ID}
	})
}

// GetEvent returns one event.
func (s *Service) GetEvent(ctx context.Context, id string) (*events.Event, error) {
	evs, errs := s.EventsByIDs(ctx, []string{id})
	return evs[0], errs[0]
}

// EventsByIDs reads many events in one statement.
func (s *Service) EventsByIDs(ctx context.Context, idList []string) ([]*events.Event, []error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	return op.ByIDs(idList, "event", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*events.Event, error) {
		var rows []*events.Event
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("e.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*events.Event, len(rows))
		for _, e := range rows {
			found[e.ID] = e
		}
		return found, nil
	})
}
