package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// accountLoader batches account reads; accounts are nodes. They derive
// what the operation selects (accountReads).
var (
	accountLoader = nodeLoader("account", func(r *Resolver) batch[*models.Account] {
		return func(ctx context.Context, ids []string) ([]*models.Account, []error) {
			return r.Svc.Accounts.Accounts.ByIDs(accountReads(ctx), ids)
		}
	})
)

// readAccount reads an account through the request's loader.
func readAccount(ctx context.Context, id string) (*models.Account, error) {
	return load(ctx, accountLoader, id)
}

func accountList(ctx context.Context, r *Resolver, first *int, after *string, f *accounts.AccountFilter) (*model.AccountConnection, error) {
	ctx = accountReads(ctx)
	edges, info, err := connection(ctx, r.Svc.Accounts.Accounts.List, filterOf(f, same[accounts.AccountFilter]),
		first, after, accountLoader, func(cursor string, a *models.Account) *model.AccountEdge {
			return &model.AccountEdge{Cursor: cursor, Node: a}
		})
	return &model.AccountConnection{Edges: edges, PageInfo: info}, err
}
