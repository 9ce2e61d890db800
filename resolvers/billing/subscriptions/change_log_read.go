package subscriptions

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ChangeLogs is the family of subscriptions' change logs (one per product
// swap), most recent first: List (GET /v1/subscription_change_logs),
// ListOf (GET /v1/subscriptions/{id}/change_logs) and OfSubscriptions
// (Subscription.changeLogs).
type ChangeLogs struct {
	op.Reader[models.SubscriptionChangeLog, ChangeLogFilter]
	OfSubscriptions op.Batch[[]*models.SubscriptionChangeLog]
	svc             *Service
}

var changeLogTable = &op.Table[models.SubscriptionChangeLog]{Resource: "subscription_change_log"}

// RecentChangeLogs is how many change logs of each subscription a page of
// subscriptions reads in one batch: Subscription.changeLogs serves its
// first page from them.
const RecentChangeLogs = 100

// ChangeLogFilter narrows the list to one subscription.
type ChangeLogFilter struct {
	Subscription *string `query:"subscription_id" filter:"subscription_id,id"`
}

func newChangeLogs(s *Service) *ChangeLogs {
	return &ChangeLogs{Reader: op.Read[models.SubscriptionChangeLog, ChangeLogFilter](s.Kit, changeLogTable), svc: s,
		OfSubscriptions: (&op.Children[models.SubscriptionChangeLog]{Table: changeLogTable, Parent: "subscription",
			Column: "subscription_id", Limit: RecentChangeLogs}).Bind(s.Kit)}
}

// ChangeLogPosition is a change log's place in the newest-first order.
func ChangeLogPosition(l *models.SubscriptionChangeLog) op.Position {
	return changeLogTable.Position(l)
}

// ListOf lists one subscription's change logs, most recent first (404 for
// an unknown subscription).
func (cs *ChangeLogs) ListOf(ctx context.Context, subscriptionID string, _ op.NoFilter, lp op.ListParams) (op.Page[*models.SubscriptionChangeLog], error) {
	if _, err := subscriptionTable.Get(ctx, cs.svc.Kit, subscriptionID); err != nil {
		return op.Page[*models.SubscriptionChangeLog]{}, err
	}
	return cs.Reader.List(ctx, ChangeLogFilter{Subscription: &subscriptionID}, lp)
}
