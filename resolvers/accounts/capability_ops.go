package accounts

import (
	"context"
	"slices"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// capabilityParams identify a capability change for idempotency.
type capabilityParams struct {
	AccountID string   `json:"account_id"`
	Name      string   `json:"name,omitempty"`
	Names     []string `json:"names,omitempty"`
}

// Request ensures the requested capabilities and their
// dependencies exist (spec doc 1 §4.3). The result says whether any new
// capability was made (201 rather than 200 over REST).
func (cs *Capabilities) Request(ctx context.Context, accountID string, names []string) (*models.CapabilityRequest, error) {
	s := cs.svc
	spec := op.Spec{Name: "capabilities.request", Allow: []auth.Kind{auth.SecretKey},
		Params: capabilityParams{AccountID: accountID, Names: names}, Check: func() error {
			var f apierr.Fields
			if len(names) == 0 {
				f.Add("capabilities", "must name at least one capability")
			}
			models.CheckCapabilityNames(&f, "capabilities", names)
			return f.Err()
		}}
	var plan []capability.Name
	var created bool
	check := func(w *op.W) error {
		var err error
		plan, err = planCapabilities(w.P, names)
		return err
	}
	return writeAccount(ctx, s, spec, accountID, check, func(ctx context.Context, aw *accountWrite) error {
		if aw.Account.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled; capabilities cannot be requested")
		}
		var ensured ensureResult
		aw.Caps, ensured = ensureCapabilities(aw.Account, aw.Caps, plan, aw.Now())
		aw.Hold, created = ensured.revived, ensured.created
		return nil
	}, func(aw *accountWrite) *models.CapabilityRequest {
		return &models.CapabilityRequest{Capabilities: pick(aw.Caps, plan), Created: created}
	})
}

// Disable switches a capability off at the merchant's request.
// It is refused while a capability depending on it (transitively) is
// pending or active; disabling a disabled one changes nothing.
func (cs *Capabilities) Disable(ctx context.Context, accountID, name string) (*models.Capability, error) {
	s := cs.svc
	return s.changeCapability(ctx, "capability.disable", accountID, name, func(aw *accountWrite, c *models.Capability) error {
		if c.Status == capability.StatusDisabled {
			return nil
		}
		if deps := capability.LiveDependents(c.Name, statuses(aw.Caps)); len(deps) > 0 {
			return apierr.Rule("capability_has_live_dependents",
				"Capability "+string(c.Name)+" cannot be disabled while capabilities that depend on it are pending or active",
				"name", map[string]any{"capability": c.Name, "dependents": deps})
		}
		now := aw.Now()
		c.Status, c.Disabled, c.DisabledReason, c.Updated = capability.StatusDisabled, models.ISOTime{Time: now}, nil, models.ISOTime{Time: now}
		aw.Announce, aw.AnnounceCapability = EventCapabilityDisabled, c
		return nil
	})
}

// Reactivate brings a disabled capability back to pending (never
// straight to active: its requirements are evaluated again). Its
// dependencies are ensured as on a request.
func (cs *Capabilities) Reactivate(ctx context.Context, accountID, name string) (*models.Capability, error) {
	s := cs.svc
	return s.changeCapability(ctx, "capability.reactivate", accountID, name, func(aw *accountWrite, c *models.Capability) error {
		if c.Status != capability.StatusDisabled {
			return apierr.InvalidState("Only a disabled capability can be reactivated; " + string(c.Name) + " is " + string(c.Status))
		}
		if err := reactivationChecks(aw.P, aw.Account, c.Name); err != nil {
			return err
		}
		var ensured ensureResult
		aw.Caps, ensured = ensureCapabilities(aw.Account, aw.Caps, capability.Expand([]capability.Name{c.Name}), aw.Now())
		aw.Hold = append(ensured.revived, c.Name)
		return nil
	})
}

// changeCapability runs one change on the account's capability called
// name, under the account lock.
func (s *Service) changeCapability(ctx context.Context, opName, accountID, name string, rule func(aw *accountWrite, c *models.Capability) error) (*models.Capability, error) {
	spec := op.Spec{Name: opName, Allow: []auth.Kind{auth.SecretKey},
		Params: capabilityParams{AccountID: accountID, Name: name}}
	var target *models.Capability
	return writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		i := slices.IndexFunc(aw.Caps, func(c *models.Capability) bool { return string(c.Name) == name })
		if i < 0 {
			return capabilityNotFound(name)
		}
		target = aw.Caps[i]
		return rule(aw, target)
	}, func(*accountWrite) *models.Capability { return target })
}

// reactivationChecks refuses a reactivation the merchant's provisioning no
// longer allows.
func reactivationChecks(p *auth.Principal, a *models.Account, name capability.Name) error {
	if a.Status == models.AccountStatusDisabled {
		return apierr.InvalidState("The account is disabled; capabilities cannot be reactivated")
	}
	for _, dep := range capability.Expand([]capability.Name{name}) {
		if !slices.Contains(merchantProducts(p.Merchant), capability.RequiredProduct(dep)) {
			return notProvisionable(dep, capability.RequiredProduct(dep))
		}
		if slices.Contains(merchantDisabled(p.Merchant), dep) {
			return apierr.InvalidState("Capability " + string(dep) + " is switched off for this merchant")
		}
	}
	return nil
}

func statuses(caps []*models.Capability) map[capability.Name]capability.Status {
	out := make(map[capability.Name]capability.Status, len(caps))
	for _, c := range caps {
		out[c.Name] = c.Status
	}
	return out
}
