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

// ListBeneficialOwners answers the account's roster as the spec lists it:
// owners created with their details and invited owners who completed them,
// oldest first (the order they were named). Pending invitations are not
// listed (they are retrievable by id). An unknown account is 404, not an
// empty roster: one statement, and a second only when the roster is empty.
func (s *Service) ListBeneficialOwners(ctx context.Context, accountID string) ([]*models.BeneficialOwner, error) {
	p, err := auth.Require(ctx, ownerWriters...)
	if err != nil {
		return nil, err
	}
	aid, ok := ids.Parse(accountID)
	if !ok {
		return nil, apierr.NotFound("account", accountID)
	}
	t := s.DB.Tenant(p.Scope)
	return listOwners(ctx, t, aid, accountID)
}

// listOwners reads the listed owners of one account, or 404 when the
// account is not the tenant's.
func listOwners(ctx context.Context, t *store.Tenant, aid uuid.UUID, accountID string) ([]*models.BeneficialOwner, error) {
	rows := []*models.BeneficialOwner{}
	q := t.Select(&rows).Where("bo.account_id = ?", aid).Where("bo.status <> ?", models.OwnerInviteSent).
		OrderExpr("bo.created, bo.id").Limit(MaxBeneficialOwners)
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		return rows, nil
	}
	exists, err := t.Select((*models.Account)(nil)).Where("a.id = ?", aid).Exists(ctx)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, apierr.NotFound("account", accountID)
	}
	return rows, nil
}

// GetBeneficialOwner answers one owner of the account (invited ones
// included); an owner of another account is 404.
func (s *Service) GetBeneficialOwner(ctx context.Context, accountID, id string) (*models.BeneficialOwner, error) {
	p, err := auth.Require(ctx, ownerWriters...)
	if err != nil {
		return nil, err
	}
	aid, ok := ids.Parse(accountID)
	if !ok {
		return nil, apierr.NotFound("account", accountID)
	}
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("beneficial_owner", id)
	}
	o := new(models.BeneficialOwner)
	if err := s.DB.Tenant(p.Scope).Select(o).Where("bo.account_id = ?", aid).Where("bo.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("beneficial_owner", id)
		}
		return nil, err
	}
	return o, nil
}

// BeneficialOwnersByIDs reads owners by id (GraphQL's loader and node).
func (s *Service) BeneficialOwnersByIDs(ctx context.Context, idList []string) ([]*models.BeneficialOwner, []error) {
	p, err := auth.Require(ctx, ownerWriters...)
	return op.ByIDs(idList, "beneficial_owner", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.BeneficialOwner, error) {
		var rows []*models.BeneficialOwner
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("bo.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		out := make(map[uuid.UUID]*models.BeneficialOwner, len(rows))
		for _, o := range rows {
			out[o.ID] = o
		}
		return out, nil
	})
}

// BeneficialOwnersOfAccounts reads the listed rosters of many accounts in
// one statement (GraphQL's Account.beneficialOwners), one roster per
// account id, in id order. The accounts themselves were read (and
// authorized) by the caller; an id without owners gets an empty roster.
func (s *Service) BeneficialOwnersOfAccounts(ctx context.Context, accountIDs []string) ([][]*models.BeneficialOwner, []error) {
	return childrenOfAccounts(ctx, s, accountIDs, ownerWriters, func(t *store.Tenant, want []uuid.UUID) (map[uuid.UUID][]*models.BeneficialOwner, error) {
		var rows []*models.BeneficialOwner
		if err := t.Select(&rows).Where("bo.account_id IN (?)", bun.In(want)).Where("bo.status <> ?", models.OwnerInviteSent).
			OrderExpr("bo.created, bo.id").Scan(ctx); err != nil {
			return nil, err
		}
		out := map[uuid.UUID][]*models.BeneficialOwner{}
		for _, o := range rows {
			out[o.AccountID] = append(out[o.AccountID], o)
		}
		return out, nil
	})
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
