package resolvers

import (
	"context"
	"strings"

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
	var rows []*models.Account
	q := t.Select(&rows)
	if f.Status != nil {
		q = q.Where("a.status = ?", string(*f.Status))
	} else if f.IncludeDisabled == nil || !*f.IncludeDisabled {
		q = q.Where("a.status <> 'disabled'")
	}
	if f.Type != nil {
		q = q.Where("a.type = ?", string(*f.Type))
	}
	if f.ExternalID != nil {
		q = q.Where("a.external_id = ?", *f.ExternalID)
	}
	if f.Name != nil && strings.TrimSpace(*f.Name) != "" {
		// As SearchAccounts: whitespace collapsed on both sides, so "Ada
		// Lovelace" finds an Ada Lovelace without a middle name.
		name := strings.Join(strings.Fields(strings.ToLower(*f.Name)), " ")
		q = q.Where(`regexp_replace(a.search_name, '\s+', ' ', 'g') LIKE ?`, "%"+likeEscape(name)+"%")
	}
	if f.Email != nil {
		q = q.Where("a.search_email = ?", strings.ToLower(strings.TrimSpace(*f.Email)))
	}
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
