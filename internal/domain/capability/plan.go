package capability

import "fmt"

// NotProvisionableError reports that a capability (requested explicitly or
// pulled in as a dependency) belongs to a product the merchant is not
// provisioned for. It is a typed error so the operation layer can map it to
// a specific API error code and name both the capability and the product.
type NotProvisionableError struct {
	Capability      Name
	RequiredProduct Product
}

func (e *NotProvisionableError) Error() string {
	return fmt.Sprintf("capability %q requires product %q, which the merchant is not provisioned for",
		e.Capability, e.RequiredProduct)
}

// UnknownCapabilityError reports a requested name that is not in the
// catalogue. Callers normally reject such names with ParseName before
// planning; Plan still refuses them rather than silently creating nothing,
// because a typo in a request must not look like success.
type UnknownCapabilityError struct {
	Capability Name
}

func (e *UnknownCapabilityError) Error() string {
	return fmt.Sprintf("unknown capability %q", e.Capability)
}

// Plan decides which capability rows must exist on an account after a
// request for the given names. It backs both
// "POST /v1/accounts/{id}/capabilities" and account creation so the two
// paths cannot drift apart.
//
// Rules, in the order they are applied:
//
//  1. Every explicitly requested name is checked first, in request order.
//     A name outside the catalogue yields *UnknownCapabilityError; a name
//     whose product the merchant lacks yields *NotProvisionableError. The
//     first offending name wins, so the error is deterministic. The product
//     check comes before the switched-off skip: a merchant that is not
//     provisioned for a product should be told so, not get a silent no-op.
//  2. A requested name the merchant has switched off (merchantDisabled) is
//     skipped silently and contributes nothing: its dependencies are NOT
//     created on its behalf. A skipped request must leave no trace; creating
//     half of a dependency tree for a capability that will never exist
//     would only add requirements the account owner has to satisfy for
//     nothing. (A dependency still gets created if another, non-skipped
//     request needs it.)
//  3. Dependencies of the remaining names are expanded transitively and are
//     subject to the same checks: a dependency whose product the merchant
//     lacks yields *NotProvisionableError naming the dependency (checked
//     after all explicit names, in request order then dependency order), and
//     a switched-off dependency is then skipped together with its own
//     subtree. Put differently: every name Plan considers (explicit, or a
//     dependency of a name that is not skipped) is product-checked before
//     the switched-off skip applies, and a skipped name's subtree is not
//     considered at all.
//
// On success toEnsure is deduplicated, in catalogue order and non-nil; on
// error it is nil and nothing should be written. Duplicate input is fine.
func Plan(requested []Name, merchantProducts []Product, merchantDisabled []Name) (toEnsure []Name, err error) {
	hasProduct := make(map[Product]bool, len(merchantProducts))
	for _, p := range merchantProducts {
		hasProduct[p] = true
	}
	switchedOff := make(map[Name]bool, len(merchantDisabled))
	for _, n := range merchantDisabled {
		switchedOff[n] = true
	}
	check := func(n Name) error {
		if !n.Valid() {
			return &UnknownCapabilityError{Capability: n}
		}
		if p := RequiredProduct(n); !hasProduct[p] {
			return &NotProvisionableError{Capability: n, RequiredProduct: p}
		}
		return nil
	}

	// Pass 1: explicit names. Errors on what the caller actually typed are
	// reported before errors on what expansion added, because they are the
	// most actionable.
	for _, n := range requested {
		if err := check(n); err != nil {
			return nil, err
		}
	}

	// Pass 2: expansion of the names that survive the switched-off skip.
	ensure := make(map[Name]bool, len(catalogue))
	var visit func(Name) error
	visit = func(n Name) error {
		if ensure[n] {
			return nil
		}
		// Same precedence as for explicit names: product first, then skip.
		if err := check(n); err != nil {
			return err
		}
		if switchedOff[n] {
			return nil
		}
		ensure[n] = true
		for _, d := range catalogue[catalogueIndex[n]].deps {
			if err := visit(d); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range requested {
		if err := visit(n); err != nil {
			return nil, err
		}
	}
	return inCatalogueOrder(ensure), nil
}
