package resolvers

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/models"
)

var (
	accountStatuses = []string{"pending", "active", "restricted", "disabled"}
	accountTypes    = []string{"individual", "business"}
)

// ListAccounts lists accounts, newest first. Disabled accounts are left out
// unless asked for (or asked for by status).
func (r *Resolver) ListAccounts(ctx context.Context, f models.AccountListFilter, pp models.PageParams) (models.Page[*models.Account], error) {
	var fields apierr.Fields
	checkEnum(&fields, "status", f.Status, accountStatuses)
	checkEnum(&fields, "type", f.Type, accountTypes)
	return r.listAccounts(ctx, &fields, pp, func(q *bun.SelectQuery) *bun.SelectQuery {
		if f.Status != nil {
			q = q.Where("a.status = ?", *f.Status)
		} else if !f.IncludeDisabled {
			q = q.Where("a.status <> 'disabled'")
		}
		if f.Type != nil {
			q = q.Where("a.type = ?", *f.Type)
		}
		if f.ExternalID != nil {
			q = q.Where("a.external_id = ?", *f.ExternalID)
		}
		return q
	})
}

// SearchAccounts finds accounts by name (substring, any case), e-mail (any
// case), external_id, status and type. Search reads the primary store, so
// it is fresh at once.
func (r *Resolver) SearchAccounts(ctx context.Context, s models.AccountSearch, pp models.PageParams) (models.Page[*models.Account], error) {
	var fields apierr.Fields
	checkEnum(&fields, "status", s.Status, accountStatuses)
	checkEnum(&fields, "type", s.Type, accountTypes)
	return r.listAccounts(ctx, &fields, pp, func(q *bun.SelectQuery) *bun.SelectQuery {
		if s.Name != nil && strings.TrimSpace(*s.Name) != "" {
			// search_name joins the name parts with single spaces, so an
			// empty middle name leaves two: collapse whitespace on both
			// sides so that "Ada Lovelace" finds Ada Lovelace.
			name := strings.Join(strings.Fields(strings.ToLower(*s.Name)), " ")
			q = q.Where(`regexp_replace(a.search_name, '\s+', ' ', 'g') LIKE ?`, "%"+likeEscape(name)+"%")
		}
		if s.Email != nil {
			q = q.Where("a.search_email = ?", strings.ToLower(strings.TrimSpace(*s.Email)))
		}
		if s.ExternalID != nil {
			q = q.Where("a.external_id = ?", *s.ExternalID)
		}
		if s.Status != nil {
			q = q.Where("a.status = ?", *s.Status)
		}
		if s.Type != nil {
			q = q.Where("a.type = ?", *s.Type)
		}
		return q
	})
}

func (r *Resolver) listAccounts(ctx context.Context, fields *apierr.Fields, pp models.PageParams, filter func(*bun.SelectQuery) *bun.SelectQuery) (models.Page[*models.Account], error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return models.Page[*models.Account]{}, err
	}
	if err := fields.Err(); err != nil {
		return models.Page[*models.Account]{}, err
	}
	pp = pp.Normalized()
	t := r.DB.Tenant(p.Scope)
	var rows []*models.Account
	q := pp.Apply(filter(t.Select(&rows)).OrderExpr("a.created DESC, a.id DESC"))
	if err := q.Scan(ctx); err != nil {
		return models.Page[*models.Account]{}, err
	}
	page := models.NewPage(rows, pp)
	if err := r.hydrateAccounts(ctx, t, page.Items); err != nil {
		return models.Page[*models.Account]{}, err
	}
	return page, nil
}

func checkEnum(f *apierr.Fields, path string, v *string, allowed []string) {
	if v == nil {
		return
	}
	for _, a := range allowed {
		if *v == a {
			return
		}
	}
	f.Add(path, "must be one of: "+strings.Join(allowed, ", "))
}
