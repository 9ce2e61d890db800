package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/internal/ids"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/models"
)

// ListEvents lists the caller's events, newest first, optionally of one type.
func (r *Resolver) ListEvents(ctx context.Context, typ *string, pp models.PageParams) (models.Page[*models.Event], error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return models.Page[*models.Event]{}, err
	}
	pp = pp.Normalized()
	var rows []*models.Event
	q := r.DB.Tenant(p.Scope).Select(&rows)
	if typ != nil {
		q = q.Where("e.type = ?", *typ)
	}
	if err := pp.Apply(q.OrderExpr("e.created DESC, e.id DESC")).Scan(ctx); err != nil {
		return models.Page[*models.Event]{}, err
	}
	return models.NewPage(rows, pp), nil
}

// GetEvent returns one event.
func (r *Resolver) GetEvent(ctx context.Context, id string) (*models.Event, error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("event", id)
	}
	e := new(models.Event)
	if err := r.DB.Tenant(p.Scope).Select(e).Where("e.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("event", id)
		}
		return nil, err
	}
	return e, nil
}
