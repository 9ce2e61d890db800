package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Test clocks load by id (nodes, testClock, Account.testClock,
// Customer.testClock), one statement for a whole page.
var testClockLoader = nodeLoader("test_clock", func(r *Resolver) batch[*models.TestClock] { return r.Svc.Billing.TestClocks.ByIDs })

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(testClockLoader, "testClock", func(a *models.Account) string { return idKey(a.TestClockID) })
	_ = edge(testClockLoader, "testClock", func(c *models.Customer) string { return idKey(c.TestClockID) })
)

func testClocks(ctx context.Context, r *Resolver, first *int, after *string) (*model.TestClockConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.TestClocks.List, op.NoFilter{}, first, after, testClockLoader,
		func(cursor string, c *models.TestClock) *model.TestClockEdge {
			return &model.TestClockEdge{Cursor: cursor, Node: c}
		})
	return &model.TestClockConnection{Edges: edges, PageInfo: info}, err
}
