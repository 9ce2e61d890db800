package usage

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// OfCustomers is the current usage of each customer (a dataloader's batch,
// Customer.usage): its usage in the current calendar month, UTC, on its
// test clock's time when it has one. One statement for every customer.
func (rs *Reports) OfCustomers(ctx context.Context, idList []string) ([]*models.UsageReport, []error) {
	p, authErr := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "customer", authErr, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.UsageReport, error) {
		q := customersMonthReport(rs.svc.DB.Tenant(p.Scope), rs.svc.Clock.Now().UTC())
		q.base = q.base.Where("cu.id IN (?)", bun.In(want))
		return rs.batch(ctx, q, p.Scope.Livemode)
	})
}

// OfSubscriptions is the usage of each subscription's payer in its current
// period (a dataloader's batch, Subscription.usage); nil for a
// subscription without a current period. One statement for every
// subscription.
func (rs *Reports) OfSubscriptions(ctx context.Context, idList []string) ([]*models.UsageReport, []error) {
	p, authErr := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "subscription", authErr, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.UsageReport, error) {
		q := subscriptionsReport(rs.svc.DB.Tenant(p.Scope))
		q.base = q.base.Where("sub.id IN (?)", bun.In(want))
		out, err := rs.batch(ctx, q, p.Scope.Livemode)
		for id, r := range out {
			if r != nil {
				sub := id
				r.SubscriptionID = &sub
			}
		}
		return out, err
	})
}

// batch runs a statement over many payer rows and assembles one report per
// row key (nil for a row without a window).
func (rs *Reports) batch(ctx context.Context, q *reportQuery, livemode bool) (map[uuid.UUID]*models.UsageReport, error) {
	rows, err := q.run(ctx)
	if err != nil {
		return nil, err
	}
	byKey := map[string][]reportRow{}
	var order []string
	for _, row := range rows {
		if byKey[row.Key] == nil {
			order = append(order, row.Key)
		}
		byKey[row.Key] = append(byKey[row.Key], row)
	}
	out := make(map[uuid.UUID]*models.UsageReport, len(order))
	for _, key := range order {
		group := byKey[key]
		id, err := uuid.Parse(key)
		if err != nil {
			return nil, err
		}
		if group[0].PeriodStart == nil || group[0].PeriodEnd == nil {
			out[id] = nil
			continue
		}
		out[id] = assemble(group, livemode, models.UsageWindow{Start: *group[0].PeriodStart, End: *group[0].PeriodEnd}, nil)
	}
	return out, nil
}
