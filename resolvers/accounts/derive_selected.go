package accounts

import "context"

// Derived names the derived members an account read fills. A read fills
// them all unless its caller says otherwise (WithDerived): GraphQL reads
// only what the operation selects anywhere, since working out an
// account's requirements and onboarding steps was a large part of a page
// of accounts whose query shows neither (docs/performance.md, "Deriving
// only what a query selects"). Every read fills blocked_reason and the
// capabilities' catalogue order, which cost next to nothing.
type Derived uint8

const (
	// DeriveRequirements fills each capability's currently_due and errors.
	DeriveRequirements Derived = 1 << iota
	// DeriveSteps fills the account's onboarding steps.
	DeriveSteps

	// DeriveNothing leaves the requirements and the steps out.
	DeriveNothing Derived = 0
	// DeriveAll fills every derived member: what REST and every write read.
	DeriveAll = DeriveRequirements | DeriveSteps
)

type derivedKey struct{}

// WithDerived makes the account reads under ctx fill only the derived
// members d names; the others stay nil. The caller answers for no member
// left out being read afterwards: an account read under it may be cached
// for the rest of the request (a GraphQL loader), so d must cover the
// whole request, not one field of it.
func WithDerived(ctx context.Context, d Derived) context.Context {
	return context.WithValue(ctx, derivedKey{}, d)
}

// derivedIn is what the reads under ctx fill: everything unless
// WithDerived said less.
func derivedIn(ctx context.Context) Derived {
	if d, ok := ctx.Value(derivedKey{}).(Derived); ok {
		return d
	}
	return DeriveAll
}
