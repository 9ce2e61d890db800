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
	out := make([]*models.Account, len(idList))
	errs := make([]error, len(idList))
	p, err := auth.Require(ctx, auth.SecretKey, auth.PublishableKey, auth.OnboardingSession, auth.CheckoutSession)
	if err != nil {
		return out, fill(errs, err)
	}
	uids := make([]uuid.UUID, len(idList))
	var want []uuid.UUID
	for i, id := range idList {
		uid, ok := ids.Parse(id)
		if !ok || !p.SeesAccount(uid) {
			errs[i] = apierr.NotFound("account", id)
			continue
		}
		uids[i] = uid
		want = append(want, uid)
	}
	found := map[uuid.UUID]*models.Account{}
	if len(want) > 0 {
		t := r.DB.Tenant(p.Scope)
		var rows []*models.Account
		if err := t.Select(&rows).Where("a.id IN (?)", bunIn(want)).Scan(ctx); err != nil {
			return out, fill(errs, err)
		}
		if err := r.hydrateAccounts(ctx, t, rows); err != nil {
			return out, fill(errs, err)
		}
		for _, a := range rows {
			a.SetVisibility(visibilityFor(p))
			found[a.ID] = a
		}
	}
	for i, id := range idList {
		if errs[i] != nil {
			continue
		}
		if a, ok := found[uids[i]]; ok {
			out[i] = a
		} else {
			errs[i] = apierr.NotFound("account", id)
		}
	}
	return out, errs
}

// CapabilitiesByIDs reads many capabilities by their own ids, with their
// derived members (currently_due, errors), which need their accounts: it
// loads the accounts owning them in one statement and hydrates those in one
// more. Like ListCapabilities, it needs a secret key.
func (r *Resolver) CapabilitiesByIDs(ctx context.Context, idList []string) ([]*models.Capability, []error) {
	out := make([]*models.Capability, len(idList))
	errs := make([]error, len(idList))
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return out, fill(errs, err)
	}
	uids := make([]uuid.UUID, len(idList))
	var want []uuid.UUID
	for i, id := range idList {
		uid, ok := ids.Parse(id)
		if !ok {
			errs[i] = apierr.NotFound("capability", id)
			continue
		}
		uids[i] = uid
		want = append(want, uid)
	}
	found := map[uuid.UUID]*models.Capability{}
	if len(want) > 0 {
		t := r.DB.Tenant(p.Scope)
		owners := t.Select((*models.Capability)(nil)).ColumnExpr("c.account_id").Where("c.id IN (?)", bunIn(want))
		var accts []*models.Account
		if err := t.Select(&accts).Where("a.id IN (?)", owners).Scan(ctx); err != nil {
			return out, fill(errs, err)
		}
		if err := r.hydrateAccounts(ctx, t, accts); err != nil {
			return out, fill(errs, err)
		}
		for _, a := range accts {
			for _, c := range a.Capabilities {
				found[c.ID] = c
			}
		}
	}
	for i, id := range idList {
		if errs[i] != nil {
			continue
		}
		if c, ok := found[uids[i]]; ok {
			out[i] = c
		} else {
			errs[i] = apierr.NotFound("capability", id)
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
