package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// readers are the credentials that may read an account: publishable keys
// and session secrets too (their own account, for sessions), with the
// merchant-internal fields left out.
var readers = []auth.Kind{auth.SecretKey, auth.PublishableKey, auth.OnboardingSession, auth.CheckoutSession}

// GetAccount returns one account as the caller may see it: one statement,
// the account with its capabilities.
func (s *Service) GetAccount(ctx context.Context, id string) (*models.Account, error) {
	p, err := auth.Require(ctx, readers...)
	if err != nil {
		return nil, err
	}
	a, err := findAccount(ctx, s.DB.Tenant(p.Scope), p, id)
	if err != nil {
		return nil, err
	}
	if err := s.hydrate([]*models.Account{a}); err != nil {
		return nil, err
	}
	return present(ctx, a), nil
}

// AccountsByIDs reads many accounts as GetAccount reads one: the same
// credentials, scope rules, resource_missing and visibility. One statement
// whatever the number of ids (none when no id can match).
func (s *Service) AccountsByIDs(ctx context.Context, idList []string) ([]*models.Account, []error) {
	p, err := auth.Require(ctx, readers...)
	var visible func(uuid.UUID) bool
	if p != nil {
		visible = p.SeesAccount
	}
	return op.ByIDs(idList, "account", err, visible, func(want []uuid.UUID) (map[uuid.UUID]*models.Account, error) {
		var rows []*models.Account
		if err := withCapabilities(s.DB.Tenant(p.Scope).Select(&rows)).Where("a.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		if err := s.hydrate(rows); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Account, len(rows))
		for _, a := range rows {
			found[a.ID] = present(ctx, a)
		}
		return found, nil
	})
}

// ListAccounts is the one list of accounts, newest first: the REST list
// (disabled accounts only when asked for), REST search (name, e-mail,
// external_id, status, type; reads the primary store, so it is fresh at
// once) and the GraphQL connection. One statement whatever the page size:
// the page, each account with its capabilities.
func (s *Service) ListAccounts(ctx context.Context, f AccountFilter, lp op.ListParams) (op.Page[*models.Account], error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return op.Page[*models.Account]{}, err
	}
	if err := f.validate(); err != nil {
		return op.Page[*models.Account]{}, err
	}
	q := withCapabilities(f.apply(s.DB.Tenant(p.Scope).Select((*models.Account)(nil))))
	page, err := op.List(ctx, q, "a", lp, accountPosition)
	if err != nil {
		return page, err
	}
	if err := s.hydrate(page.Items); err != nil {
		return page, err
	}
	for _, a := range page.Items {
		present(ctx, a)
	}
	return page, nil
}

func accountPosition(a *models.Account) op.Position {
	return op.Position{Created: a.Created.Time, ID: a.ID}
}
