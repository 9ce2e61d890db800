package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// accountLoader batches account reads; accounts are nodes.
var (
	accountLoader = nodeLoader("account", func(r *Resolver) batch[*models.Account] { return r.Svc.Accounts.Accounts.ByIDs })
)

// readAccount reads an account through the request's loader.
func readAccount(ctx context.Context, id string) (*models.Account, error) {
	return load(ctx, accountLoader, id)
}

// accountFilter maps the GraphQL filter onto the one account filter.
func accountFilter(f model.AccountFilter) accounts.AccountFilter {
	return accounts.AccountFilter{Status: strPtr(f.Status), Type: strPtr(f.Type), ExternalID: f.ExternalID,
		Name: f.Name, Email: f.Email, IncludeDisabled: f.IncludeDisabled}
}

func accountList(ctx context.Context, r *Resolver, first *int, after *string, f *model.AccountFilter) (*model.AccountConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Accounts.Accounts.List, filterOf(f, accountFilter),
		first, after, accountLoader, func(cursor string, a *models.Account) *model.AccountEdge {
			return &model.AccountEdge{Cursor: cursor, Node: a}
		})
	return &model.AccountConnection{Edges: edges, PageInfo: info}, err
}
