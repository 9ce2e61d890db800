// Package payments is the payments area of the operation layer: payment
// methods (cards, bank accounts, wallet credentials, bank linking) and, as
// they are built, charges, refunds, disputes, checkout and 3-D Secure. REST
// and GraphQL call this Service; the pure card and bank rules live in
// internal/domain/card and internal/domain/bank.
//
// Files: paymentmethod_*.go (create, read, filter, attach, detach,
// update), bank_link.go (connect_plaid), account_cards.go (what a card
// attached to an account changes on the account).
package payments

import "github.com/frame-oss/payments-server/resolvers/op"

// Service runs the area's operations.
type Service struct {
	*op.Kit
	accounts AccountCards
}

// New returns the area's service over kit; accounts re-evaluates an
// account's card requirement when its cards change.
func New(kit *op.Kit, accounts AccountCards) *Service { return &Service{Kit: kit, accounts: accounts} }
