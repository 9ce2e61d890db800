// Package accounts is the accounts-and-verification area of the operation
// layer: connected accounts and their capabilities (and, as they are built,
// beneficial owners, onboarding sessions and identity, phone and document
// verification). REST and GraphQL call this Service; every rule of the area
// lives here or in the pure rules of internal/domain/capability.
package accounts

import (
	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service runs the area's operations.
type Service struct {
	*op.Kit

	// FactsHook, when set, adjusts the facts the requirement rules see for
	// an account. Verification flows that are not stored yet (phone,
	// identity runs, payment methods) report through here in tests. A
	// test seam given by the composition root (areas.Options), assigned by
	// no other area: reactions between areas are typed hooks (op.Hooks).
	FactsHook func(a *models.Account, f *capability.Facts)

	// IdentityAttempts is the identity verification attempt allowance of
	// an account (0: DefaultIdentityAttempts).
	IdentityAttempts int

	// The area's resource families.
	Accounts     *Accounts
	Capabilities *Capabilities
	Owners       *Owners
	IdentityRuns *IdentityRuns
	// PhoneVerifications and BankAccounts are the account holder's phone
	// and bank account proofs.
	PhoneVerifications *PhoneVerifications
	BankAccounts       *BankAccounts
	Onboarding         *Onboarding
	Terms              *Terms
	IDV                *IDV
	Geo                *Geo
	CustomerIdentity   *CustomerIdentity
}

// New returns the area's service over kit.
func New(kit *op.Kit, hook func(*models.Account, *capability.Facts)) *Service {
	s := &Service{Kit: kit, FactsHook: hook}
	s.Accounts, s.Capabilities = &Accounts{svc: s}, &Capabilities{svc: s}
	s.Owners, s.IdentityRuns = newOwners(s), newIdentityRuns(s)
	s.PhoneVerifications, s.BankAccounts = newPhoneVerifications(s), newBankAccounts(s)
	s.Onboarding, s.Terms, s.IDV, s.Geo = newOnboarding(s), &Terms{svc: s}, &IDV{svc: s}, &Geo{svc: s}
	s.CustomerIdentity = newCustomerIdentity(s)
	return s
}
