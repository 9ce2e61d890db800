package resolvers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
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

// CreateAccount creates a connected account with its requested
// capabilities (and their dependencies) in one transaction.
func (r *Resolver) CreateAccount(ctx context.Context, in *models.CreateAccountInput) (*models.Account, error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	now := r.Clock.Now()
	if err := in.Validate(now); err != nil {
		return nil, err
	}
	plan, err := planCapabilities(p, in.Capabilities)
	if err != nil {
		return nil, err
	}
	a := &models.Account{ID: ids.New(now), Type: models.AccountType(*in.Type), Status: models.AccountStatusPending,
		RestrictedBy: []string{}, ExternalID: in.ExternalID, Metadata: models.MergeMetadata(nil, in.Metadata),
		Created: models.At(now), Updated: models.At(now)}
	in.Profile.ApplyTo(&a.Profile)
	if in.TermsOfService != nil {
		a.TermsOfService = in.TermsOfService.Accept(now)
	}
	err = r.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		if _, err := tx.Insert(a).Exec(ctx); err != nil {
			return externalIDTaken(err)
		}
		caps, _, err := ensureCapabilities(ctx, tx, a, nil, plan, now)
		if err != nil {
			return err
		}
		r.derive(a, caps)
		if _, err := events.Emit(ctx, tx, now, EventAccountCreated, a.ID, a, nil); err != nil {
			return err
		}
		return r.reconcile(ctx, tx, now, a, caps)
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// GetAccount returns one account as the caller may see it. Publishable keys
// and session secrets may read accounts too (their own, for sessions), with
// the merchant-internal fields left out.
func (r *Resolver) GetAccount(ctx context.Context, id string) (*models.Account, error) {
	p, err := auth.Require(ctx, auth.SecretKey, auth.PublishableKey, auth.OnboardingSession, auth.CheckoutSession)
	if err != nil {
		return nil, err
	}
	t := r.DB.Tenant(p.Scope)
	a, err := findAccount(ctx, t, p, id, false)
	if err != nil {
		return nil, err
	}
	if err := r.hydrateAccounts(ctx, t, []*models.Account{a}); err != nil {
		return nil, err
	}
	a.SetVisibility(visibilityFor(p))
	return a, nil
}

// UpdateAccount merges a partial update into the account. An onboarding
// session secret may update its own account's profile and terms only.
func (r *Resolver) UpdateAccount(ctx context.Context, id string, in *models.UpdateAccountInput) (*models.Account, error) {
	p, err := auth.Require(ctx, auth.SecretKey, auth.OnboardingSession)
	if err != nil {
		return nil, err
	}
	if p.Kind == auth.OnboardingSession && (in.Metadata != nil || in.ExternalID != nil) {
		return nil, apierr.Forbidden("An onboarding session may update only profile and terms_of_service")
	}
	var a *models.Account
	err = r.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		var now time.Time
		if a, now, err = r.lockAccount(ctx, tx, p, id); err != nil {
			return err
		}
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled and cannot be updated")
		}
		fields := in.Validate(a.Type, now)
		metadata := models.MergeMetadata(a.Metadata, in.Metadata)
		models.CheckMetadataSize(fields, "metadata", metadata)
		if err := fields.Err(); err != nil {
			return err
		}
		caps, err := loadCapabilities(ctx, tx, []uuid.UUID{a.ID})
		if err != nil {
			return err
		}
		r.derive(a, caps[a.ID])
		before, err := snapshot(a)
		if err != nil {
			return err
		}
		a.Metadata = metadata
		if in.ExternalID != nil {
			a.ExternalID = in.ExternalID
			if *in.ExternalID == "" {
				a.ExternalID = nil
			}
		}
		in.Profile.ApplyTo(&a.Profile)
		if in.TermsOfService != nil {
			a.TermsOfService = in.TermsOfService.Accept(now)
		}
		// An update that changes nothing writes nothing: `updated` keeps
		// meaning "last changed".
		after, err := snapshot(a)
		if err != nil {
			return err
		}
		if !bytes.Equal(before, after) {
			a.Updated = models.At(now)
			if _, err := tx.Update(a).Column("external_id", "metadata", "profile", "terms_of_service", "updated").
				WherePK().Exec(ctx); err != nil {
				return externalIDTaken(err)
			}
		}
		if err := r.reconcile(ctx, tx, now, a, caps[a.ID]); err != nil {
			return err
		}
		return emitUpdated(ctx, tx, now, before, a)
	})
	if err != nil {
		return nil, err
	}
	a.SetVisibility(visibilityFor(p))
	return a, nil
}

// DisableAccount disables the account (DELETE). Disabling a disabled account
// changes nothing and answers it as it is.
func (r *Resolver) DisableAccount(ctx context.Context, id string) (*models.Account, error) {
	return r.changeHold(ctx, id, func(a *models.Account, now time.Time) (string, error) {
		if a.Status == models.AccountStatusDisabled {
			return "", nil
		}
		a.Disabled = models.At(now)
		return EventAccountDisabled, nil
	})
}

// RestrictAccount places the merchant's hold on the account.
func (r *Resolver) RestrictAccount(ctx context.Context, id string) (*models.Account, error) {
	return r.changeHold(ctx, id, func(a *models.Account, _ time.Time) (string, error) {
		if a.Status == models.AccountStatusDisabled {
			return "", apierr.InvalidState("The account is disabled and cannot be restricted")
		}
		if contains(a.RestrictedBy, models.RestrictorMerchant) {
			return "", nil
		}
		a.RestrictedBy = append(append([]string{}, a.RestrictedBy...), models.RestrictorMerchant)
		return EventAccountRestricted, nil
	})
}

// UnrestrictAccount lifts the merchant's own hold. A hold the service
// placed stays, and so does the restriction it causes.
func (r *Resolver) UnrestrictAccount(ctx context.Context, id string) (*models.Account, error) {
	return r.changeHold(ctx, id, func(a *models.Account, _ time.Time) (string, error) {
		if a.Status == models.AccountStatusDisabled {
			return "", apierr.InvalidState("The account is disabled and cannot be unrestricted")
		}
		if !contains(a.RestrictedBy, models.RestrictorMerchant) {
			return "", nil
		}
		kept := []string{}
		for _, party := range a.RestrictedBy {
			if party != models.RestrictorMerchant {
				kept = append(kept, party)
			}
		}
		a.RestrictedBy = kept
		return EventAccountUpdated, nil
	})
}

// changeHold runs one hold change (restrict, unrestrict, disable): change
// mutates the locked account and names the event to emit, or "" for a
// no-op. The status is derived again from the holds.
func (r *Resolver) changeHold(ctx context.Context, id string, change func(a *models.Account, now time.Time) (string, error)) (*models.Account, error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return nil, err
	}
	var a *models.Account
	err = r.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		var now time.Time
		if a, now, err = r.lockAccount(ctx, tx, p, id); err != nil {
			return err
		}
		caps, err := loadCapabilities(ctx, tx, []uuid.UUID{a.ID})
		if err != nil {
			return err
		}
		r.derive(a, caps[a.ID])
		before, err := snapshot(a)
		if err != nil {
			return err
		}
		evType, err := change(a, now)
		if err != nil || evType == "" {
			return err
		}
		status, _ := capability.DeriveAccountStatus(accountState(a, caps[a.ID]))
		a.Status, a.Updated = models.AccountStatus(status), models.At(now)
		// Lifting the last hold can make the account active for the first
		// time (a capability activated while it was held): that is its
		// activation, announced now rather than at some later change.
		firstActive := a.Status == models.AccountStatusActive && a.Activated.IsZero()
		if firstActive {
			a.Activated = models.At(now)
		}
		if _, err := tx.Update(a).Column("status", "restricted_by", "disabled", "activated", "updated").WherePK().Exec(ctx); err != nil {
			return err
		}
		if a.Status == models.AccountStatusDisabled {
			if err := auth.RevokeSessionSecrets(ctx, tx, "", a.ID, now); err != nil {
				return err
			}
		}
		r.derive(a, caps[a.ID])
		prev, err := events.PreviousAttributes(before, a)
		if err != nil {
			return err
		}
		if _, err = events.Emit(ctx, tx, now, evType, a.ID, a, prev); err != nil || !firstActive {
			return err
		}
		_, err = events.Emit(ctx, tx, now, EventAccountActivated, a.ID, a, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// snapshot renders a as REST renders it now. previous_attributes must be
// computed from a snapshot, not from a copy of the struct: the copy would
// share the profile and capability pointers that the change then mutates,
// and the change would vanish from previous_attributes.
func snapshot(a *models.Account) (json.RawMessage, error) { return json.Marshal(a) }

// emitUpdated emits account.updated when the rendering changed since before
// (a snapshot).
func emitUpdated(ctx context.Context, tx *store.Tenant, now time.Time, before json.RawMessage, after *models.Account) error {
	prev, err := events.PreviousAttributes(before, after)
	if err != nil || prev == nil {
		return err
	}
	_, err = events.Emit(ctx, tx, now, EventAccountUpdated, after.ID, after, prev)
	return err
}

// externalIDTaken turns the unique index's refusal into the validation
// error a pre-check would give; checking in the database keeps two
// concurrent creates from both taking the same external_id.
func externalIDTaken(err error) error {
	if c, ok := store.UniqueViolation(err); ok && c == "accounts_external_id_key" {
		return apierr.FieldError("external_id", "has already been taken by another account")
	}
	return err
}

// planCapabilities turns requested names into the capabilities to ensure,
// or the capability_not_provisionable refusal.
func planCapabilities(p *auth.Principal, requested []string) ([]capability.Name, error) {
	names := make([]capability.Name, 0, len(requested))
	for _, s := range requested {
		names = append(names, capability.Name(strings.TrimSpace(s)))
	}
	plan, err := capability.Plan(names, p.Merchant.Products, p.Merchant.DisabledCapabilities)
	var np *capability.NotProvisionableError
	if errors.As(err, &np) {
		return nil, notProvisionable(np.Capability, np.RequiredProduct)
	}
	if err != nil {
		return nil, apierr.FieldError("capabilities", err.Error())
	}
	return plan, nil
}

func notProvisionable(name capability.Name, product capability.Product) error {
	return apierr.Rule("capability_not_provisionable",
		"Capability "+string(name)+" requires the "+string(product)+" product", "capabilities",
		map[string]any{"capability": name, "required_product": product})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
