package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/models"
)

// AccountConnection is the GraphQL accounts list: the accounts of the
// caller's scope, newest first, keyset-paginated on (created, id). It filters
// as ListAccounts does (disabled accounts only when asked for, or asked for
// by status) and searches as SearchAccounts does (name substring in any
// case, e-mail in any case). It runs two statements whatever the page size:
// the page, then the capabilities of every account on it.
func (r *Resolver) AccountConnection(ctx context.Context, first *int, after *string, f *model.AccountFilter) (*model.AccountConnection, error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	k, err := newKeysetRequest(first, after)
	if err != nil {
		return nil, err
	}
	if f == nil {
		f = &model.AccountFilter{}
	}
	t := r.DB.Tenant(p.Scope)
	af := accountFilter{ExternalID: f.ExternalID, Name: f.Name, Email: f.Email,
		IncludeDisabled: f.IncludeDisabled != nil && *f.IncludeDisabled}
	if f.Status != nil {
		af.Status = ptr(string(*f.Status))
	}
	if f.Type != nil {
		af.Type = ptr(string(*f.Type))
	}
	var rows []*models.Account
	q := af.apply(t.Select(&rows))
	if err := k.apply(q, "a").Scan(ctx); err != nil {
		return nil, err
	}
	rows, info := keysetPage(k, rows, func(a *models.Account) string { return encodeCursor(a.Created.Time, a.ID) })
	if err := r.hydrateAccounts(ctx, t, rows); err != nil {
		return nil, err
	}
	conn := &model.AccountConnection{Edges: make([]*model.AccountEdge, len(rows)), PageInfo: info}
	for i, a := range rows {
		a.SetVisibility(visibilityFor(p))
		conn.Edges[i] = &model.AccountEdge{Cursor: encodeCursor(a.Created.Time, a.ID), Node: a}
	}
	return conn, nil
}
