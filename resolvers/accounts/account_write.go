package accounts

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// accountWrite is one change to an existing account, made under the
// account's row lock (which serializes every write to the account and its
// capabilities). A rule (update, a hold, a capability change) edits Account
// and Caps in memory and says how the change is announced; writeAccount
// does the rest the same way for all of them.
type accountWrite struct {
	*op.W
	Account *models.Account
	// Caps are the account's capabilities in catalogue order; a rule may
	// change them and append new ones (ensureCapabilities).
	Caps []*models.Capability
	// Hold names capabilities this write keeps pending even when satisfied.
	Hold []capability.Name
	// Announce is the event that announces the change, written before any
	// activation it caused (account.restricted, capability.disabled). Left
	// empty, a change that alters the account's rendering is announced as
	// account.updated, after the activations.
	Announce events.Type
	// AnnounceCapability, when set, is the object Announce carries instead
	// of the account (capability.disabled), without previous_attributes.
	AnnounceCapability *models.Capability

	stored       map[uuid.UUID]capabilityRow // capability rows as loaded
	verification json.RawMessage             // the account's verification facts as loaded
}

// capabilityRow is what is stored of a capability and may change.
type capabilityRow struct {
	status   capability.Status
	disabled bool
	reason   string
}

func rowOf(c *models.Capability) capabilityRow {
	r := capabilityRow{status: c.Status, disabled: !c.Disabled.IsZero()}
	if c.DisabledReason != nil {
		r.reason = *c.DisabledReason
	}
	return r
}

// writeAccount runs rule on the account id through the write path and
// answers result's view of the outcome (what the idempotency key replays):
// lock
// the account, read the time, load and derive, render the account before,
// apply the rule, derive once more and reconcile, render after, persist
// what changed, and announce it (the events carry the one rendering after;
// previous_attributes come from the two renderings). A rule that changes
// nothing writes nothing and announces nothing.
//
// check, when given, runs before the account is looked up: input checks
// that do not depend on the account answer before a 404 would.
func writeAccount[Out any](ctx context.Context, s *Service, spec op.Spec, id string, check func(w *op.W) error,
	rule func(ctx context.Context, aw *accountWrite) error, result func(aw *accountWrite) Out) (Out, error) {
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (out Out, err error) {
		if check != nil {
			if err := check(w); err != nil {
				return out, err
			}
		}
		aw, err := s.changeAccount(ctx, w, id, rule)
		if err != nil {
			return out, err
		}
		return result(aw), nil
	})
}

// changeAccount is the account write inside a running write w (a
// request's, or the service's own through op.Background): lock, load,
// derive, render, apply rule, then finish.
func (s *Service) changeAccount(ctx context.Context, w *op.W, id string, rule func(ctx context.Context, aw *accountWrite) error) (*accountWrite, error) {
	a, err := lockAccount(ctx, w, id)
	if err != nil {
		return nil, err
	}
	// In a statement of its own, after the lock (see lockAccount).
	caps, err := loadCapabilities(ctx, w.Tx, []uuid.UUID{a.ID})
	if err != nil {
		return nil, err
	}
	aw := &accountWrite{W: w, Account: a, Caps: caps[a.ID], stored: map[uuid.UUID]capabilityRow{}}
	if aw.verification, err = json.Marshal(a.Verification); err != nil {
		return nil, err
	}
	for _, c := range aw.Caps {
		aw.stored[c.ID] = rowOf(c)
	}
	s.derive(a, aw.Caps)
	before, err := events.Render(a)
	if err != nil {
		return nil, err
	}
	if err := rule(ctx, aw); err != nil {
		return nil, err
	}
	if err := s.finish(ctx, aw, before); err != nil {
		return nil, err
	}
	return aw, nil
}

// finish derives, reconciles, persists and announces an account write.
func (s *Service) finish(ctx context.Context, aw *accountWrite, before json.RawMessage) error {
	a, now := aw.Account, models.At(aw.Now())
	previousUpdated := a.Updated
	activated, accountActivated := s.reconcile(a, s.derive(a, aw.Caps), now, aw.Hold)
	a.Updated = now
	after, prev, err := events.RenderChange(before, a)
	if err != nil {
		return err
	}
	if !rowChanged(prev) {
		a.Updated = previousUpdated
	}
	if err := s.persist(ctx, aw, rowChanged(prev)); err != nil {
		return err
	}
	if prev != nil && !rowChanged(prev) {
		// The account's own row is as it was (a capability changed): its
		// rendering keeps its `updated`.
		if after, err = events.Render(a); err != nil {
			return err
		}
	}
	if !aw.Announce.IsZero() {
		if c := aw.AnnounceCapability; c != nil {
			if err := aw.EmitObject(aw.Announce, c.ID, c); err != nil {
				return err
			}
		} else {
			aw.Emit(aw.Announce, a.ID, after, prev)
		}
	}
	if err := emitActivations(aw.W, a, after, activated, accountActivated); err != nil {
		return err
	}
	if aw.Announce.IsZero() && prev != nil {
		aw.Emit(EventAccountUpdated, a.ID, after, prev)
	}
	return nil
}

// rowChanged reports whether a change reached the account's own row:
// anything rendered but the members derived from its capabilities.
func rowChanged(prev map[string]any) bool {
	for k := range prev {
		switch k {
		case "capabilities", "steps", "blocked_reason":
		default:
			return true
		}
	}
	return false
}

// persist writes what the write changed: the account row (one statement),
// the capabilities that changed (one statement), the new ones (one).
//
// A change to the verification facts alone (a roster certification that
// changes nothing rendered) writes that column without touching `updated`.
func (s *Service) persist(ctx context.Context, aw *accountWrite, accountChanged bool) error {
	verification, err := json.Marshal(aw.Account.Verification)
	if err != nil {
		return err
	}
	factsChanged := !bytes.Equal(verification, aw.verification)
	switch {
	case accountChanged:
		if _, err := aw.Tx.Update(aw.Account).
			Column("external_id", "metadata", "profile", "terms_of_service", "status", "restricted_by",
				"disabled", "activated", "verification", "payout_payment_method_id", "updated").WherePK().Exec(ctx); err != nil {
			return externalIDTaken(err)
		}
	case factsChanged:
		if _, err := aw.Tx.Update(aw.Account).Column("verification").WherePK().Exec(ctx); err != nil {
			return err
		}
	}
	var changed, fresh []*models.Capability
	for _, c := range aw.Caps {
		row, ok := aw.stored[c.ID]
		switch {
		case !ok:
			fresh = append(fresh, c)
		case row != rowOf(c):
			changed = append(changed, c)
		}
	}
	return saveCapabilities(ctx, aw.Tx, changed, fresh)
}

// saveCapabilities updates changed capabilities in one statement and
// inserts fresh ones in another.
func saveCapabilities(ctx context.Context, tx *store.Tenant, changed, fresh []*models.Capability) error {
	if len(changed) > 0 {
		if _, err := tx.Update(&changed).Column("status", "disabled", "disabled_reason", "updated").
			Bulk().Exec(ctx); err != nil {
			return err
		}
	}
	if len(fresh) > 0 {
		if _, err := store.InsertModel(tx, fresh).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// emitActivations announces capabilities that activated, then the
// account's first activation.
func emitActivations(w *op.W, a *models.Account, rendered json.RawMessage, activated []*models.Capability, accountActivated bool) error {
	for _, c := range activated {
		if err := w.EmitObject(EventCapabilityActivated, c.ID, c); err != nil {
			return err
		}
	}
	if accountActivated {
		w.Emit(EventAccountActivated, a.ID, rendered, nil)
	}
	return nil
}

// present applies what the caller may see of the result.
func present(ctx context.Context, a *models.Account) *models.Account {
	if p := auth.FromContext(ctx); p != nil {
		a.SetVisibility(visibilityFor(p))
	}
	return a
}
