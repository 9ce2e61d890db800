package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// runReaders may read identity verification runs (secret key only).
var runReaders = []auth.Kind{auth.SecretKey}

// IdentityVerificationFilter narrows an account's runs (spec doc 1 §4.5).
type IdentityVerificationFilter struct {
	Status   *string
	Provider *string
}

func (f IdentityVerificationFilter) validate() error {
	var fields apierr.Fields
	if f.Status != nil && !oneOf(*f.Status, models.RunStatuses) {
		fields.Add("status", "must be one of: pending, approved, failed, errored, incomplete")
	}
	if err := fields.Err(); err != nil {
		e := apierr.As(err)
		e.Status, e.Code = 400, apierr.CodeParameterInvalid
		return e
	}
	return nil
}

func (f IdentityVerificationFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Status != nil {
		q = q.Where("iv.status = ?", *f.Status)
	}
	if f.Provider != nil {
		q = q.Where("iv.provider = ?", *f.Provider)
	}
	return q
}

// ListIdentityVerifications is the one list of an account's runs, most
// recent first (the REST list and the GraphQL connection). An unknown
// account is 404.
func (s *Service) ListIdentityVerifications(ctx context.Context, accountID string, f IdentityVerificationFilter, lp op.ListParams) (op.Page[*models.IdentityVerification], error) {
	var page op.Page[*models.IdentityVerification]
	p, err := auth.Require(ctx, runReaders...)
	if err != nil {
		return page, err
	}
	if err := f.validate(); err != nil {
		return page, err
	}
	aid, ok := ids.Parse(accountID)
	if !ok {
		return page, apierr.NotFound("account", accountID)
	}
	t := s.DB.Tenant(p.Scope)
	q := f.apply(t.Select((*models.IdentityVerification)(nil)).Where("iv.account_id = ?", aid))
	if page, err = op.List(ctx, q, "iv", lp, runPosition); err != nil {
		return page, err
	}
	return page, requireAccount(ctx, t, aid, accountID, len(page.Items) > 0)
}

func runPosition(r *models.IdentityVerification) op.Position {
	return op.Position{Created: r.Created.Time, ID: r.ID}
}

// GetIdentityVerification answers one run of the account.
func (s *Service) GetIdentityVerification(ctx context.Context, accountID, id string) (*models.IdentityVerification, error) {
	p, err := auth.Require(ctx, runReaders...)
	if err != nil {
		return nil, err
	}
	return childOf[models.IdentityVerification](ctx, s.DB.Tenant(p.Scope), "iv", "identity_verification", accountID, id)
}

// IdentityVerificationsByIDs reads runs by id (GraphQL's loader and node).
func (s *Service) IdentityVerificationsByIDs(ctx context.Context, idList []string) ([]*models.IdentityVerification, []error) {
	p, err := auth.Require(ctx, runReaders...)
	return op.ByIDs(idList, "identity_verification", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.IdentityVerification, error) {
		var rows []*models.IdentityVerification
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("iv.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		out := make(map[uuid.UUID]*models.IdentityVerification, len(rows))
		for _, r := range rows {
			out[r.ID] = r
		}
		return out, nil
	})
}

// RecentChildren is how many of an account's runs or phone verifications
// the account's GraphQL edge lists (the newest); the connection of the
// root query pages through all of them.
const RecentChildren = 100

// IdentityVerificationsOfAccounts reads the newest runs of many accounts
// in one statement (GraphQL's Account.identityVerifications).
func (s *Service) IdentityVerificationsOfAccounts(ctx context.Context, accountIDs []string) ([][]*models.IdentityVerification, []error) {
	return childrenOfAccounts(ctx, s, accountIDs, runReaders, func(t *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]*models.IdentityVerification, error) {
		var rows []*models.IdentityVerification
		if err := recentOf(t.Select(&rows), t, "identity_verifications", "iv", want).Scan(ctx); err != nil {
			return nil, err
		}
		out := map[uuid.UUID][]*models.IdentityVerification{}
		for _, r := range rows {
			out[r.AccountID] = append(out[r.AccountID], r)
		}
		return out, nil
	})
}

// recentOf limits a select of an account-owned table (its name and alias)
// to the RecentChildren newest rows of each account in want, newest first.
func recentOf(q *bun.SelectQuery, t *store.Tenant, table, alias string, want []uuid.UUID) *bun.SelectQuery {
	sc := t.Scope()
	return q.Where("?.account_id IN (?)", bun.Ident(alias), bun.In(want)).
		Where("?.id IN (SELECT id FROM (SELECT x.id, row_number() OVER (PARTITION BY x.account_id ORDER BY x.created DESC, x.id DESC) AS n "+
			"FROM ? AS x WHERE x.merchant_id = ? AND x.livemode = ? AND x.account_id IN (?)) AS ranked WHERE n <= ?)",
			bun.Ident(alias), bun.Ident(table), sc.MerchantID, sc.Livemode, bun.In(want), RecentChildren).
		OrderExpr("?.created DESC, ?.id DESC", bun.Ident(alias), bun.Ident(alias))
}

// childOf reads one row of an account-owned table by id, scoped to the
// account: another account's row is 404 like a missing one.
func childOf[T any](ctx context.Context, t *store.Tenant, alias, resource, accountID, id string) (*T, error) {
	aid, ok := ids.Parse(accountID)
	if !ok {
		return nil, apierr.NotFound("account", accountID)
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound(resource, id)
	}
	row := new(T)
	if err := t.Select(row).Where("?.account_id = ?", bun.Ident(alias), aid).Where("?.id = ?", bun.Ident(alias), uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound(resource, id)
		}
		return nil, err
	}
	return row, nil
}

// requireAccount answers 404 for an account the tenant does not hold,
// asking the database only when found says nothing (an empty page).
func requireAccount(ctx context.Context, t *store.Tenant, aid uuid.UUID, accountID string, found bool) error {
	if found {
		return nil
	}
	ok, err := accountRows.Select(t, nil, (*models.Account)(nil)).Where("a.id = ?", aid).Exists(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apierr.NotFound("account", accountID)
	}
	return nil
}

func oneOf(s string, allowed []string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}

// childrenOfAccounts answers a batched read of the children of many
// accounts, one slice (never nil) per id, in id order.
func childrenOfAccounts[T any](ctx context.Context, s *Service, accountIDs []string, allow []auth.Kind,
	load func(t *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]T, error)) ([][]T, []error) {
	out := make([][]T, len(accountIDs))
	errs := make([]error, len(accountIDs))
	p, err := auth.Require(ctx, allow...)
	if err != nil {
		return out, fillErr(errs, err)
	}
	want := make([]uuid.UUID, 0, len(accountIDs))
	uids := make([]uuid.UUID, len(accountIDs))
	for i, id := range accountIDs {
		uid, ok := ids.Parse(id)
		if !ok || !p.SeesAccount(uid) {
			errs[i] = apierr.NotFound("account", id)
			continue
		}
		uids[i] = uid
		want = append(want, uid)
	}
	found, err := load(s.DB.Tenant(p.Scope), want)
	if err != nil {
		return out, fillErr(errs, err)
	}
	for i := range accountIDs {
		if errs[i] == nil {
			out[i] = found[uids[i]]
			if out[i] == nil {
				out[i] = []T{}
			}
		}
	}
	return out, errs
}

func fillErr(errs []error, err error) []error {
	for i := range errs {
		if errs[i] == nil {
			errs[i] = err
		}
	}
	return errs
}
