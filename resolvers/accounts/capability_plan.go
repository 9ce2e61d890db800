package accounts

import (
	"errors"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
)

// planCapabilities turns requested names into the capabilities to ensure,
// or the capability_not_provisionable refusal.
func planCapabilities(p *auth.Principal, requested []string) ([]capability.Name, error) {
	names := make([]capability.Name, 0, len(requested))
	for _, s := range requested {
		names = append(names, capability.Name(strings.TrimSpace(s)))
	}
	plan, err := capability.Plan(names, merchantProducts(p.Merchant), merchantDisabled(p.Merchant))
	var np *capability.NotProvisionableError
	if errors.As(err, &np) {
		return nil, notProvisionable(np.Capability, np.RequiredProduct)
	}
	if err != nil {
		return nil, apierr.FieldError("capabilities", err.Error())
	}
	return plan, nil
}

func merchantProducts(m *auth.Merchant) []capability.Product {
	out := make([]capability.Product, len(m.Products))
	for i, p := range m.Products {
		out[i] = capability.Product(p)
	}
	return out
}

func merchantDisabled(m *auth.Merchant) []capability.Name {
	out := make([]capability.Name, len(m.DisabledCapabilities))
	for i, n := range m.DisabledCapabilities {
		out[i] = capability.Name(n)
	}
	return out
}

func notProvisionable(name capability.Name, product capability.Product) error {
	return apierr.Rule("capability_not_provisionable",
		"Capability "+string(name)+" requires the "+string(product)+" product", "capabilities",
		map[string]any{"capability": name, "required_product": product})
}

// ensureResult says what ensureCapabilities changed.
type ensureResult struct {
	created bool
	revived []capability.Name // disabled capabilities brought back to pending
}

// ensureCapabilities makes every planned capability live on the account, in
// memory: a missing one is created pending, a disabled one returns to
// pending (a live capability's dependencies are always live), a live one is
// left as it is. It returns the account's full capability list in catalogue
// order; the write persists it.
func ensureCapabilities(a *models.Account, existing []*models.Capability, plan []capability.Name, now time.Time) ([]*models.Capability, ensureResult) {
	var res ensureResult
	byName := make(map[capability.Name]*models.Capability, len(existing)+len(plan))
	for _, c := range existing {
		byName[c.Name] = c
	}
	for _, n := range plan {
		c, ok := byName[n]
		switch {
		case !ok:
			byName[n] = &models.Capability{ID: ids.New(now), AccountID: a.ID, Name: n, Status: capability.StatusPending,
				Created: models.ISOTime{Time: now}, Updated: models.ISOTime{Time: now}}
			res.created = true
		case c.Status == capability.StatusDisabled:
			c.Status, c.Disabled, c.DisabledReason, c.Updated = capability.StatusPending, models.ISOTime{}, nil, models.ISOTime{Time: now}
			res.revived = append(res.revived, n)
		}
	}
	out := make([]*models.Capability, 0, len(byName))
	for _, n := range capability.AllNames() {
		if c, ok := byName[n]; ok {
			out = append(out, c)
		}
	}
	return out, res
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
