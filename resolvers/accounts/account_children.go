package accounts

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// listOfAccount is the one list of an account's children (table), most
// recent first: for a caller of one of kinds that sees the account, with
// the filter f narrowed to the account by of. An account id that does not
// parse, that the caller does not see, or that names no account of the
// tenant is 404 (an empty page of an existing account is not).
func listOfAccount[M, F any](ctx context.Context, s *Service, table *op.Table[M], kinds []auth.Kind, accountID string,
	f F, of func(f *F, account uuid.UUID), lp op.ListParams) (op.Page[*M], error) {
	var page op.Page[*M]
	p, err := auth.Require(ctx, kinds...)
	if err != nil {
		return page, err
	}
	aid, ok := ids.Parse(accountID)
	if !ok || !p.SeesAccount(aid) {
		return page, apierr.NotFound("account", accountID)
	}
	of(&f, aid)
	t := s.DB.Tenant(p.Scope)
	if page, err = table.ListIn(ctx, s.Kit, t, p, f, lp); err != nil {
		return page, err
	}
	return page, requireAccount(ctx, t, aid, accountID, len(page.Items) > 0)
}

// lockOfAccount locks the row id of table, an object that belongs to one
// account (accountOf), for a change under the account aw locked. An object
// of another account of the tenant is missing like one that does not
// exist, so that a path's account id cannot reach another's children.
func lockOfAccount[M any](ctx context.Context, aw *accountWrite, table *op.Table[M], id string,
	accountOf func(*M) uuid.UUID) (*M, error) {
	row, err := table.Lock(ctx, aw.W, id, op.LockUpdate)
	if err != nil {
		return nil, err
	}
	if accountOf(row) != aw.Account.ID {
		return nil, apierr.NotFound(table.Resource, id)
	}
	return row, nil
}
