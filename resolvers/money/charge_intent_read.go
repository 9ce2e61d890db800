package money

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// GetChargeIntent returns one intent as the caller may see it: with its
// payment method and charge in one statement, and, for the secret key, its
// payer's objects (one statement each). A publishable key reads it with
// its client_secret (the query's client_secret), the ci_ secret its own
// intent only.
func (s *Service) GetChargeIntent(ctx context.Context, id string, clientSecret *string) (*models.ChargeIntent, error) {
	p, err := auth.Require(ctx, intentClients...)
	if err != nil {
		return nil, err
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("charge_intent", id)
	}
	tn := s.DB.Tenant(p.Scope)
	if err := mayUseIntent(ctx, tn, p, uid, clientSecret, s.Clock.Now()); err != nil {
		return nil, err
	}
	ci, err := selectIntent(ctx, tn, id, false)
	if err != nil {
		return nil, err
	}
	if p.Kind == auth.SecretKey {
		if err := s.embedPayers(ctx, tn, []*models.ChargeIntent{ci}); err != nil {
			return nil, err
		}
	}
	return present(p, ci), nil
}

// ChargeIntentsByIDs reads many intents in one statement, with their
// payment methods and charges (GraphQL; secret key). Their payers are
// edges of their own.
func (s *Service) ChargeIntentsByIDs(ctx context.Context, idList []string) ([]*models.ChargeIntent, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "charge_intent", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.ChargeIntent, error) {
		var rows []*models.ChargeIntent
		if err := withIntentRelations(s.DB.Tenant(p.Scope).Select(&rows)).Where("ci.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.ChargeIntent, len(rows))
		for _, r := range rows {
			r.Derive()
			found[r.ID] = r
		}
		return found, nil
	})
}

// ChargeIntentFilter filters the intent list. Q is the search query (the
// official SDKs name none; q, as customer search has it): an intent's id
// or reference_id exactly, its receipt e-mail case-insensitively, or a
// part of its description.
type ChargeIntentFilter struct {
	Q, Status, CustomerID, AccountID *string
}

// maxSearchLength bounds a search query.
const maxSearchLength = 255

func (f ChargeIntentFilter) apply(q *bun.SelectQuery) (*bun.SelectQuery, error) {
	var fields apierr.Fields
	if f.Q != nil {
		if !models.CheckText(&fields, "q", f.Q, maxSearchLength, false) {
			return nil, fields.Err()
		}
		term := strings.TrimSpace(*f.Q)
		if term != "" {
			q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
				if uid, ok := ids.Parse(term); ok {
					q = q.WhereOr("ci.id = ?", uid)
				}
				return q.WhereOr("ci.reference_id = ?", term).WhereOr("lower(ci.receipt_email) = lower(?)", term).
					WhereOr("ci.description ILIKE ? ESCAPE '\\'", "%"+likeEscaper.Replace(term)+"%")
			})
		}
	}
	if f.Status != nil {
		q = q.Where("ci.status = ?", *f.Status)
	}
	for _, by := range []struct {
		param, column string
		value         *string
	}{{"customer", "ci.customer_id", f.CustomerID}, {"account", "ci.account_id", f.AccountID}} {
		if by.value == nil {
			continue
		}
		uid, ok := ids.Parse(*by.value)
		if !ok {
			fields.Add(by.param, "is not a valid id")
			continue
		}
		q = q.Where("? = ?", bun.Ident(by.column), uid)
	}
	return q, fields.Err()
}

// likeEscaper escapes the wildcards of a LIKE pattern.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// ListChargeIntents is the one list of intents, newest first (REST list
// and GraphQL connection; secret key): the page with payment methods and
// charges in one statement, and the payers' objects in one statement each,
// whatever the page size.
func (s *Service) ListChargeIntents(ctx context.Context, f ChargeIntentFilter, lp op.ListParams) (op.Page[*models.ChargeIntent], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.ChargeIntent]{}, err
	}
	tn := s.DB.Tenant(p.Scope)
	q, err := f.apply(withIntentRelations(tn.Select((*models.ChargeIntent)(nil))))
	if err != nil {
		return op.Page[*models.ChargeIntent]{}, err
	}
	page, err := op.List(ctx, q, "ci", lp, func(ci *models.ChargeIntent) op.Position {
		return op.Position{Created: ci.Created.Time, ID: ci.ID}
	})
	if err != nil {
		return page, err
	}
	for _, ci := range page.Items {
		ci.Derive()
	}
	return page, s.embedPayers(ctx, tn, page.Items)
}
