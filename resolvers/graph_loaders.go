package resolvers

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/internal/ids"
	"github.com/frame-oss/payments-server/models"
)

// The batched reads behind the GraphQL dataloaders (graph/loaders). Each
// answers one value or one error per id, in id order, with the same
// authorization, scoping, visibility and errors as the single reads.

// AccountsByIDs reads many accounts as GetAccount reads one: the same
// credentials, the same scope rules for session secrets, the same
// resource_missing for an unknown or unseen id, the same visibility. Two
// statements whatever the number of ids (none when no id can match).
func (r *Resolver) AccountsByIDs(ctx context.Context, idList []string) ([]*models.Account, []error) {
	p, err := auth.Require(ctx, auth.SecretKey, auth.PublishableKey, auth.OnboardingSession, auth.CheckoutSession)
	return batchByID(idList, "account", err, p.SeesAccount, func(want []uuid.UUID) (map[uuid.UUID]*models.Account, error) {
		t := r.DB.Tenant(p.Scope)
		var rows []*models.Account
		if err := t.Select(&rows).Where("a.id IN (?)", bunIn(want)).Scan(ctx); err != nil {
			return nil, err
		}
		if err := r.hydrateAccounts(ctx, t, rows); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.Account, len(rows))
		for _, a := range rows {
			a.SetVisibility(visibilityFor(p))
			found[a.ID] = a
		}
		return found, nil
	})
}

// CapabilitiesByIDs reads many capabilities by their own ids, with their
// derived members (currently_due, errors), which need their accounts: it
// loads the accounts owning them in one statement and hydrates those in one
// more. Like ListCapabilities, it needs a secret key.
func (r *Resolver) CapabilitiesByIDs(ctx context.Context, idList []string) ([]*models.Capability, []error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	return batchByID(idList, "capability", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Capability, error) {
		t := r.DB.Tenant(p.Scope)
		owners := t.Select((*models.Capability)(nil)).ColumnExpr("c.account_id").Where("c.id IN (?)", bunIn(want))
		var accts []*models.Account
		if err := t.Select(&accts).Where("a.id IN (?)", owners).Scan(ctx); err != nil {
			return nil, err
		}
		if err := r.hydrateAccounts(ctx, t, accts); err != nil {
			return nil, err
		}
		found := map[uuid.UUID]*models.Capability{}
		for _, a := range accts {
			for _, c := range a.Capabilities {
				found[c.ID] = c
			}
		}
		return found, nil
	})
}

// batchByID answers a batch lookup in id order: authErr fails every id;
// an id that does not parse, or that visible (when given) refuses, is
// resource_missing without a query; load fetches the rest at once, and any
// id it does not return is resource_missing too.
func batchByID[T any](idList []string, resource string, authErr error, visible func(uuid.UUID) bool,
	load func(want []uuid.UUID) (map[uuid.UUID]T, error)) ([]T, []error) {
	out := make([]T, len(idList))
	errs := make([]error, len(idList))
	if authErr != nil {
		return out, fill(errs, authErr)
	}
	uids := make([]uuid.UUID, len(idList))
	var want []uuid.UUID
	for i, id := range idList {
		uid, ok := ids.Parse(id)
		if !ok || (visible != nil && !visible(uid)) {
			errs[i] = apierr.NotFound(resource, id)
			continue
		}
		uids[i] = uid
		want = append(want, uid)
	}
	found := map[uuid.UUID]T{}
	if len(want) > 0 {
		var err error
		if found, err = load(want); err != nil {
			return out, fill(errs, err)
		}
	}
	for i, id := range idList {
		if errs[i] != nil {
			continue
		}
		if v, ok := found[uids[i]]; ok {
			out[i] = v
		} else {
			errs[i] = apierr.NotFound(resource, id)
		}
	}
	return out, errs
}

// fill sets every unset entry of errs to err.
func fill(errs []error, err error) []error {
	for i := range errs {
		if errs[i] == nil {
			errs[i] = err
		}
	}
	return errs
}
