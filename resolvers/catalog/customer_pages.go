package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfTestClocks reads one page of the customers bound to each of many
// test clocks in one statement (TestClock.customers), newest first, as
// the customer list reads them (deleted customers left out).
func (cs *Customers) PagesOfTestClocks(ctx context.Context, clockIDs []string,
	first *int, after *string) ([]op.Page[*models.Customer], []error) {
	return customerTable.PagesOf(ctx, cs.svc.Kit, "test_clock_id", "test_clock", clockIDs, CustomerFilter{}, first, after)
}
