package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PagesOfTestClocks reads one page of the accounts bound to each of many
// test clocks in one statement (TestClock.accounts), newest first, with
// the account's credential kinds and visibility. Every account of the
// clock is in it, disabled ones too: the clock's page shows what the clock
// moves, which a status does not change.
func (as *Accounts) PagesOfTestClocks(ctx context.Context, clockIDs []string,
	first *int, after *string) ([]op.Page[*models.Account], []error) {
	all := true
	return accountTable.PagesOf(ctx, as.svc.Kit, "test_clock_id", "test_clock", clockIDs,
		AccountFilter{IncludeDisabled: &all}, first, after)
}
