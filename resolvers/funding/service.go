// Package funding is the money-movement area of the operation layer that
// follows the payments: payouts from the merchant's instant-payout
// balance, the funding of that balance (schedules swept by a background
// job, manual top-ups, the entries both write) and the merchant balance
// read from the ledger (docs/funding.md). Every movement is a journal on
// the double-entry ledger (internal/platform/ledger); fees come from the
// money area's payout agreements (money.PricePayout).
//
// Files: payout_*.go, schedule_*.go, sweep.go (the River job that runs
// due schedules), top_up.go, entry_read.go, balance.go (the
// instant-payout balance: its lock, its journals, its read), events.go.
package funding

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service runs the area's operations.
type Service struct {
	*op.Kit
	// SweepInterval is how often the sweep runs due schedules
	// (PeriodicJobs); zero means DefaultSweepInterval.
	SweepInterval time.Duration
}

// New returns the area's service over kit.
func New(kit *op.Kit) *Service { return &Service{Kit: kit} }

// secretOnly is the credential kind of every operation here (spec doc 2
// §5: all but a few named operations need the secret key).
var secretOnly = []auth.Kind{auth.SecretKey}

// errNoProvider refuses production payouts and fundings: no card network,
// bank or funding provider ships with the server (API-DECISIONS §1).
var errNoProvider = apierr.Unavailable(apierr.CodeProviderNotConfigured,
	"Production payouts and funding need a payout or bank provider, and none is configured", 0, nil)
