package resolvers

import (
	"context"
	"slices"
	"time"

	"github.com/frame-oss/payments-server/internal/capability"
	"github.com/frame-oss/payments-server/internal/events"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/models"
)

// Event types of accounts and capabilities (API-DECISIONS §4).
const (
	EventAccountCreated      = "account.created"
	EventAccountUpdated      = "account.updated"
	EventAccountActivated    = "account.activated"
	EventAccountRestricted   = "account.restricted"
	EventAccountDisabled     = "account.disabled"
	EventCapabilityActivated = "capability.activated"
	EventCapabilityDisabled  = "capability.disabled"
)

// reconcile re-evaluates requirements after a change: pending capabilities
// whose checklist now passes turn active, and the account status follows
// (API-DECISIONS §4b). It persists what moved and emits capability.activated
// and account.activated in the caller's transaction; hold names capabilities
// that must stay pending in this request (a reactivation, or a revival by
// request, never returns active directly). It leaves a and caps hydrated.
func (r *Resolver) reconcile(ctx context.Context, tx *store.Tenant, now time.Time, a *models.Account, caps []*models.Capability, hold ...capability.Name) error {
	f := r.facts(a)
	var activated []*models.Capability
	for _, c := range caps {
		if c.Status != capability.StatusPending || slices.Contains(hold, c.Name) {
			continue
		}
		if capability.NextStatus(c.Status, capability.Evaluate(c.Name, c.Status, f)) != capability.StatusActive {
			continue
		}
		c.Status, c.Updated = capability.StatusActive, models.ISOTime{Time: now}
		if _, err := tx.Update(c).Column("status", "updated").WherePK().Exec(ctx); err != nil {
			return err
		}
		activated = append(activated, c)
	}
	status, _ := capability.DeriveAccountStatus(accountState(a, caps))
	becameActive := models.AccountStatus(status) == models.AccountStatusActive && a.Activated.IsZero()
	if becameActive {
		a.Activated = models.At(now)
	}
	if models.AccountStatus(status) != a.Status || becameActive {
		a.Status, a.Updated = models.AccountStatus(status), models.At(now)
		if _, err := tx.Update(a).Column("status", "activated", "updated").WherePK().Exec(ctx); err != nil {
			return err
		}
	}
	r.derive(a, caps)
	for _, c := range activated {
		if _, err := events.Emit(ctx, tx, now, EventCapabilityActivated, c.ID, c, nil); err != nil {
			return err
		}
	}
	if becameActive {
		if _, err := events.Emit(ctx, tx, now, EventAccountActivated, a.ID, a, nil); err != nil {
			return err
		}
	}
	return nil
}
