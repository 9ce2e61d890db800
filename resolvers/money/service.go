// Package money is the money-movement area of the operation layer:
// transfer fee plans, billing agreements and transfers, every movement
// journaled on the double-entry ledger (internal/platform/ledger). REST and
// GraphQL call this Service.
package money

import (
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/payments"
)

// Service runs the area's operations. Catalog applies promotion codes
// (catalog.Discounts.Redeem, the one redemption function) and creates the
// customers of a charge intent's customer_data; Payments creates the cards
// a charge intent takes inline (its one validation path); Accounts renders
// the accounts charge intents embed.
type Service struct {
	*op.Kit
	Catalog  *catalog.Service
	Payments *payments.Service
	Accounts *accounts.Service

	// The area's resource families.
	FeePlans   *FeePlans
	Agreements *Agreements
	Transfers  *Transfers
	Charges    *Charges
	// ChargeIntents are the deprecated payment objects, on the same
	// charging pieces.
	ChargeIntents *ChargeIntents
	// CheckoutSessions and ThreeDSIntents serve the browser flow.
	CheckoutSessions *CheckoutSessions
	ThreeDSIntents   *ThreeDSIntents
	Refunds          *Refunds
	Disputes         *Disputes
	// The SDK's sessions beyond the spec (docs/sandbox.md).
	ChargeSessions      *ChargeSessions
	SonarSessions       *SonarSessions
	PaymentLinkSessions *PaymentLinkSessions
}

// New returns the area's service over kit.
func New(kit *op.Kit, cat *catalog.Service, pay *payments.Service, acc *accounts.Service) *Service {
	s := &Service{Kit: kit, Catalog: cat, Payments: pay, Accounts: acc}
	s.FeePlans, s.Agreements = newFeePlans(s), newAgreements(s)
	s.Transfers, s.Charges, s.ChargeIntents = newTransfers(s), newCharges(s), newChargeIntents(s)
	s.CheckoutSessions, s.ThreeDSIntents = newCheckoutSessions(s), newThreeDSIntents(s)
	s.Refunds, s.Disputes = newRefunds(s), newDisputes(s)
	s.ChargeSessions, s.SonarSessions, s.PaymentLinkSessions = newChargeSessions(s), newSonarSessions(s), newPaymentLinkSessions(s)
	return s
}

// secretOnly is the credential kind of every operation here but the
// browser flow's.
var secretOnly = []auth.Kind{auth.SecretKey}

// browserOrSecret may create, confirm and read a transfer: the browser
// flow under a chk_sess_ secret (its own session's transfers only).
var browserOrSecret = []auth.Kind{auth.SecretKey, auth.CheckoutSession}
