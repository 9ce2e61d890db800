package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfTestClocks reads one page of the accounts bound to each of many
// test clocks in one statement (TestClock.accounts), newest first, with
// the account's credential kinds and visibility, each account with its
// capabilities and derived members as every account read gives it. Every
// account of the clock is in it, disabled ones too: the clock's page shows
// what the clock moves, which a status does not change.
func (as *Accounts) PagesOfTestClocks(ctx context.Context, clockIDs []string,
	first *int, after *string) ([]op.Page[*models.Account], []error) {
	all := true
	pages, errs := accountTable.PagesOf(ctx, as.svc.Kit, "test_clock_id", "test_clock", clockIDs,
		AccountFilter{IncludeDisabled: &all}, first, after)
	for _, page := range pages {
		as.svc.hydrate(ctx, page.Items)
		for _, a := range page.Items {
			present(ctx, a)
		}
	}
	return pages, errs
}
