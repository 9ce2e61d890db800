package resolvers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/auth"
	"github.com/frame-oss/payments-server/internal/capability"
	"github.com/frame-oss/payments-server/internal/events"
	"github.com/frame-oss/payments-server/internal/ids"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/models"
)

// ListCapabilities returns every capability of the account.
func (r *Resolver) ListCapabilities(ctx context.Context, accountID string) ([]*models.Capability, error) {
	if _, err := auth.Require(ctx, auth.SecretKey); err != nil {
		return nil, err
	}
	a, err := r.GetAccount(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return a.Capabilities, nil
}

// GetCapability returns the account's capability called name.
func (r *Resolver) GetCapability(ctx context.Context, accountID, name string) (*models.Capability, error) {
	caps, err := r.ListCapabilities(ctx, accountID)
	if err != nil {
		return nil, err
	}
	for _, c := range caps {
		if string(c.Name) == name {
			return c, nil
		}
	}
	return nil, capabilityNotFound(name)
}

// RequestCapabilities ensures the requested capabilities and their
// dependencies exist (spec doc 1 §4.3). created reports whether any new
// capability was made (201 rather than 200 over REST).
func (r *Resolver) RequestCapabilities(ctx context.Context, accountID string, names []string) (out []*models.Capability, created bool, err error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, false, err
	}
	var f apierr.Fields
	if len(names) == 0 {
		f.Add("capabilities", "must name at least one capability")
	}
	models.CheckCapabilityNames(&f, "capabilities", names)
	if err := f.Err(); err != nil {
		return nil, false, err
	}
	plan, err := planCapabilities(p, names)
	if err != nil {
		return nil, false, err
	}
	err = r.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		a, now, err := r.lockAccount(ctx, tx, p, accountID)
		if err != nil {
			return err
		}
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled; capabilities cannot be requested")
		}
		existing, err := loadCapabilities(ctx, tx, []uuid.UUID{a.ID})
		if err != nil {
			return err
		}
		r.derive(a, existing[a.ID])
		before, err := snapshot(a)
		if err != nil {
			return err
		}
		caps, changed, err := ensureCapabilities(ctx, tx, a, existing[a.ID], plan, now)
		if err != nil {
			return err
		}
		created = changed.created
		if err := r.reconcile(ctx, tx, now, a, caps, changed.revived...); err != nil {
			return err
		}
		out = pick(caps, plan)
		if changed.any() {
			return emitUpdated(ctx, tx, now, before, a)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
}

// DisableCapability switches a capability off at the merchant's request.
// It is refused while a capability depending on it (transitively) is
// pending or active; disabling a disabled one changes nothing.
func (r *Resolver) DisableCapability(ctx context.Context, accountID, name string) (*models.Capability, error) {
	return r.changeCapability(ctx, accountID, name, func(c *models.Capability, statuses map[capability.Name]capability.Status, now time.Time) (string, error) {
		if c.Status == capability.StatusDisabled {
			return "", nil
		}
		if deps := capability.LiveDependents(c.Name, statuses); len(deps) > 0 {
			return "", apierr.Rule("capability_has_live_dependents",
				"Capability "+string(c.Name)+" cannot be disabled while capabilities that depend on it are pending or active",
				"name", map[string]any{"capability": c.Name, "dependents": deps})
		}
		c.Status, c.Disabled, c.DisabledReason = capability.StatusDisabled, models.ISOTime{Time: now}, nil
		return EventCapabilityDisabled, nil
	})
}

// ReactivateCapability brings a disabled capability back to pending (never
// straight to active: its requirements are evaluated again). Its
// dependencies are ensured as on a request.
func (r *Resolver) ReactivateCapability(ctx context.Context, accountID, name string) (*models.Capability, error) {
	return r.changeCapability(ctx, accountID, name, func(c *models.Capability, _ map[capability.Name]capability.Status, now time.Time) (string, error) {
		if c.Status != capability.StatusDisabled {
			return "", apierr.InvalidState("Only a disabled capability can be reactivated; " + string(c.Name) + " is " + string(c.Status))
		}
		c.Status, c.Disabled, c.DisabledReason = capability.StatusPending, models.ISOTime{}, nil
		return EventAccountUpdated, nil
	})
}

type capabilityChange func(c *models.Capability, statuses map[capability.Name]capability.Status, now time.Time) (event string, err error)

// changeCapability runs one change on a capability under the account lock.
func (r *Resolver) changeCapability(ctx context.Context, accountID, name string, change capabilityChange) (*models.Capability, error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	var out *models.Capability
	err = r.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		a, now, err := r.lockAccount(ctx, tx, p, accountID)
		if err != nil {
			return err
		}
		all, err := loadCapabilities(ctx, tx, []uuid.UUID{a.ID})
		if err != nil {
			return err
		}
		caps := all[a.ID]
		statuses := map[capability.Name]capability.Status{}
		for _, c := range caps {
			statuses[c.Name] = c.Status
			if string(c.Name) == name {
				out = c
			}
		}
		if out == nil {
			return capabilityNotFound(name)
		}
		r.derive(a, caps)
		before, err := snapshot(a)
		if err != nil {
			return err
		}
		evType, err := change(out, statuses, now)
		if err != nil || evType == "" {
			return err
		}
		var held []capability.Name
		if evType == EventAccountUpdated { // a reactivation
			if err := r.reactivationChecks(p, a, out.Name); err != nil {
				return err
			}
			var ensured ensureResult
			if caps, ensured, err = ensureCapabilities(ctx, tx, a, caps, capability.Expand([]capability.Name{out.Name}), now); err != nil {
				return err
			}
			held = append(ensured.revived, out.Name)
		}
		out.Updated = models.ISOTime{Time: now}
		if _, err := tx.Update(out).Column("status", "disabled", "disabled_reason", "updated").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := r.reconcile(ctx, tx, now, a, caps, held...); err != nil {
			return err
		}
		if evType == EventAccountUpdated {
			return emitUpdated(ctx, tx, now, before, a)
		}
		_, err = events.Emit(ctx, tx, now, evType, out.ID, out, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// reactivationChecks refuses a reactivation the merchant's provisioning no
// longer allows.
func (r *Resolver) reactivationChecks(p *auth.Principal, a *models.Account, name capability.Name) error {
	if a.Status == models.AccountStatusDisabled {
		return apierr.InvalidState("The account is disabled; capabilities cannot be reactivated")
	}
	for _, dep := range capability.Expand([]capability.Name{name}) {
		if !holdsProduct(p.Merchant, capability.RequiredProduct(dep)) {
			return notProvisionable(dep, capability.RequiredProduct(dep))
		}
		for _, off := range p.Merchant.DisabledCapabilities {
			if off == dep {
				return apierr.InvalidState("Capability " + string(dep) + " is switched off for this merchant")
			}
		}
	}
	return nil
}

func holdsProduct(m *models.Merchant, product capability.Product) bool {
	for _, p := range m.Products {
		if p == product {
			return true
		}
	}
	return false
}

type ensureResult struct {
	created bool
	revived []capability.Name // disabled capabilities brought back to pending
}

func (e ensureResult) any() bool { return e.created || len(e.revived) > 0 }

// ensureCapabilities makes every planned capability live on the account:
// a missing one is created pending, a disabled one returns to pending (a
// live capability's dependencies are always live), a live one is left as
// it is. It returns the account's full capability list in catalogue order.
func ensureCapabilities(ctx context.Context, tx *store.Tenant, a *models.Account, existing []*models.Capability, plan []capability.Name, now time.Time) ([]*models.Capability, ensureResult, error) {
	var res ensureResult
	byName := map[capability.Name]*models.Capability{}
	for _, c := range existing {
		byName[c.Name] = c
	}
	var fresh []*models.Capability
	for _, n := range plan {
		c, ok := byName[n]
		switch {
		case !ok:
			c = &models.Capability{ID: ids.New(now), AccountID: a.ID, Name: n, Status: capability.StatusPending,
				Created: models.ISOTime{Time: now}, Updated: models.ISOTime{Time: now}}
			fresh = append(fresh, c)
			byName[n] = c
		case c.Status == capability.StatusDisabled:
			c.Status, c.Disabled, c.DisabledReason, c.Updated = capability.StatusPending, models.ISOTime{}, nil, models.ISOTime{Time: now}
			if _, err := tx.Update(c).Column("status", "disabled", "disabled_reason", "updated").WherePK().Exec(ctx); err != nil {
				return nil, res, err
			}
			res.revived = append(res.revived, n)
		}
	}
	if len(fresh) > 0 {
		if _, err := store.InsertModel(tx, fresh).Exec(ctx); err != nil {
			return nil, res, err
		}
		res.created = true
	}
	out := make([]*models.Capability, 0, len(byName))
	for _, n := range capability.AllNames() {
		if c, ok := byName[n]; ok {
			out = append(out, c)
		}
	}
	return out, res, nil
}

// pick returns the capabilities named in plan, in catalogue order.
func pick(caps []*models.Capability, plan []capability.Name) []*models.Capability {
	want := map[capability.Name]bool{}
	for _, n := range plan {
		want[n] = true
	}
	out := []*models.Capability{}
	for _, c := range caps {
		if want[c.Name] {
			out = append(out, c)
		}
	}
	return out
}

// capabilityNotFound is the 404 for a capability the account does not have;
// the path parameter at fault is its name.
func capabilityNotFound(name string) error {
	e := apierr.NotFound("capability", name)
	e.Param = "name"
	return e
}
