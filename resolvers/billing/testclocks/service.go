// Package testclocks is the billing family of test clocks and of the
// runner of due effects: the effects time causes, registered by the
// families that own them (due.DueSource), applied in time order on a
// test clock's advance or, on the server's clock, by a periodic job.
package testclocks

import (
	"time"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service is the test clocks and the due effects' runner.
type Service struct {
	*op.Kit

	TestClocks *TestClocks

	// DueInterval is how often the effects due on the server's clock run
	// (RecurringJobs); zero means DefaultDueInterval.
	DueInterval time.Duration
	// AdvanceBudget is how many due effects one test clock advance
	// request, or one slice of its background continuation, applies at
	// most; zero means DefaultAdvanceBudget.
	AdvanceBudget int

	// dueSources are the kinds of effect time causes (due.DueSource), in
	// the order they were added.
	dueSources []due.DueSource
}

// AddDueSource registers a kind of effect that falls due with time.
func (s *Service) AddDueSource(src due.DueSource) { s.dueSources = append(s.dueSources, src) }

// DueSources are the registered kinds of effect.
func (s *Service) DueSources() []due.DueSource { return s.dueSources }

// New returns the family over kit, with no due source yet.
func New(kit *op.Kit) *Service {
	s := &Service{Kit: kit}
	s.TestClocks = newTestClocks(s)
	return s
}

// secretOnly is the credential kind of every operation of the family.
var secretOnly = []auth.Kind{auth.SecretKey}
