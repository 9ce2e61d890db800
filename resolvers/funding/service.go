// Package funding is the money-movement area of the operation layer that
// follows the payments: payouts from the merchant's instant-payout
// balance, the funding of that balance (schedules swept by a background
// job, manual top-ups, the entries both write) and the merchant balance
// read from the ledger (docs/funding.md). Every movement is a journal on
// the double-entry ledger (internal/platform/ledger); fees come from the
// money area's payout agreements (money.PricePayout).
package funding

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service runs the area's operations.
type Service struct {
	*op.Kit
	// The area's resource families.
	Payouts   *Payouts
	Schedules *Schedules
	Entries   *Entries
	// SweepInterval is how often the sweep runs due schedules
	// (RecurringJobs); zero means DefaultSweepInterval.
	SweepInterval time.Duration
}

// New returns the area's service over kit.
func New(kit *op.Kit) *Service {
	s := &Service{Kit: kit}
	s.Payouts, s.Schedules, s.Entries = newPayouts(s), newSchedules(s), newEntries(s)
	return s
}

// secretOnly is the credential kind of every operation here (spec doc 2
// §5: all but a few named operations need the secret key).
var secretOnly = []auth.Kind{auth.SecretKey}

// payoutProvider is what production payouts and fundings need: no card
// network, bank or funding provider ships with the server
// (API-DECISIONS §1), so they answer 503 provider_not_configured.
const payoutProvider = "payout or bank"
