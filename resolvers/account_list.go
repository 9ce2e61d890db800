package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/models"
)

// ListAccounts lists accounts, newest first. Disabled accounts are left out
// unless asked for (or asked for by status).
func (r *Resolver) ListAccounts(ctx context.Context, f models.AccountListFilter, pp models.PageParams) (models.Page[*models.Account], error) {
	return r.listAccounts(ctx, accountFilter{Status: f.Status, Type: f.Type, ExternalID: f.ExternalID,
		IncludeDisabled: f.IncludeDisabled}, pp)
}

// SearchAccounts finds accounts by name (substring, any case, across the
// person's and the business's names), e-mail (any case), external_id,
// status and type. Search reads the primary store, so it is fresh at once,
// and it includes disabled accounts.
func (r *Resolver) SearchAccounts(ctx context.Context, s models.AccountSearch, pp models.PageParams) (models.Page[*models.Account], error) {
	return r.listAccounts(ctx, accountFilter{Status: s.Status, Type: s.Type, ExternalID: s.ExternalID,
		Name: s.Name, Email: s.Email, IncludeDisabled: true}, pp)
}

func (r *Resolver) listAccounts(ctx context.Context, f accountFilter, pp models.PageParams) (models.Page[*models.Account], error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return models.Page[*models.Account]{}, err
	}
	var fields apierr.Fields
	f.validate(&fields)
	if err := fields.Err(); err != nil {
		return models.Page[*models.Account]{}, err
	}
	pp = pp.Normalized()
	t := r.DB.Tenant(p.Scope)
	var rows []*models.Account
	q := pp.Apply(f.apply(t.Select(&rows)).OrderExpr("a.created DESC, a.id DESC"))
	if err := q.Scan(ctx); err != nil {
		return models.Page[*models.Account]{}, err
	}
	page := models.NewPage(rows, pp)
	if err := r.hydrateAccounts(ctx, t, page.Items); err != nil {
		return models.Page[*models.Account]{}, err
	}
	return page, nil
}
