// Package money is the money-movement area of the operation layer:
// transfer fee plans, billing agreements and transfers, every movement
// journaled on the double-entry ledger (internal/platform/ledger). REST and
// GraphQL call this Service.
//
// Files: fee_plan_*.go, agreement_*.go, pricing.go (the agreement lookup a
// transfer makes and its fees), transfer_*.go, sandbox_processor.go (the
// deterministic card and bank processor of the sandbox), journal.go (the
// ledger postings of each movement), charge_*.go (the processor's answers),
// refund_*.go, dispute_*.go (refunds and disputes of charges, on the
// ledger), blocklist_*.go (the merchant's block lists every charge path
// screens), events.go.
package money

import (
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service runs the area's operations. Catalog applies promotion codes
// (catalog.Service.Redeem, the one redemption function).
type Service struct {
	*op.Kit
	Catalog *catalog.Service
}

// New returns the area's service over kit.
func New(kit *op.Kit, cat *catalog.Service) *Service { return &Service{Kit: kit, Catalog: cat} }

// secretOnly is the credential kind of every operation here but the
// browser flow's.
var secretOnly = []auth.Kind{auth.SecretKey}

// browserOrSecret may create, confirm and read a transfer: the browser
// flow under a chk_sess_ secret (its own session's transfers only).
var browserOrSecret = []auth.Kind{auth.SecretKey, auth.CheckoutSession}
