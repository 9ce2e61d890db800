package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// accountLoader batches account reads; accounts are nodes.
var (
	accountLoader = loader("account", func(r *Resolver) loaders.Fetch[*models.Account] { return r.Svc.Accounts.AccountsByIDs })
	_             = node(accountLoader)
)

// readAccount reads an account through the request's loader.
func readAccount(ctx context.Context, id string) (*models.Account, error) {
	return load(ctx, accountLoader, id)
}

// accountFilter maps the GraphQL filter onto the one account filter.
func accountFilter(f *model.AccountFilter) accounts.AccountFilter {
	if f == nil {
		return accounts.AccountFilter{}
	}
	return accounts.AccountFilter{Status: strPtr(f.Status), Type: strPtr(f.Type), ExternalID: f.ExternalID,
		Name: f.Name, Email: f.Email, IncludeDisabled: f.IncludeDisabled != nil && *f.IncludeDisabled}
}

func accountConnection(page op.Page[*models.Account]) *model.AccountConnection {
	edges, info := connect(page, func(c string, a *models.Account) *model.AccountEdge {
		return &model.AccountEdge{Cursor: c, Node: a}
	})
	return &model.AccountConnection{Edges: edges, PageInfo: info}
}
