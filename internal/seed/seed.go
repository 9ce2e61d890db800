// Package seed fills a merchant's sandbox with a small, realistic data set
// for dashboards: accounts in every status, customers and their payment
// methods, products, subscriptions billed over several months on a test
// clock (one in dunning), charges with refunds and disputes, and payouts.
//
// Every object is made by the operation layer, the services REST and
// GraphQL call, acting as the merchant's sandbox secret key: each write
// has its events, ledger journals and webhooks exactly as an integration's
// requests would. The data set is fixed (names, amounts, cards, order), and
// what depends on time runs on a test clock, so two merchants seeded get
// the same shapes apart from ids and wall-clock stamps. docs/sandbox.md
// ("Sample data") lists what it creates.
package seed

import (
	"context"
	"errors"
	"fmt"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/resolvers/areas"
)

// ErrProduction refuses to seed production mode: sample data belongs in
// the sandbox, where its test cards and personas mean something.
var ErrProduction = errors.New("seed fills the sandbox only: production mode holds real data")

// Run writes the data set into the merchant's sandbox. Each write is one
// operation, committed on its own, as a sequence of API requests would
// be; should one fail, Run stops there and reports it (what was written
// before stays). Running it again adds a second identical set. A merchant
// without the products or capabilities the data set uses is refused
// before anything is written.
func Run(ctx context.Context, svc areas.Services, m *auth.Merchant) (*Summary, error) {
	if err := fits(m); err != nil {
		return nil, err
	}
	key := sandboxKey(m)
	s := &seeder{svc: svc, ctx: auth.WithPrincipal(ctx, key), scope: key.Scope, cards: map[string]string{}}
	before, err := s.countEvents()
	if err != nil {
		return nil, err
	}
	for _, step := range []struct {
		name string
		run  func() error
	}{
		{"pricing", s.pricing},
		{"accounts", s.accounts},
		{"charges", s.charges},
		{"payouts", s.payouts},
		{"billing", s.billing},
	} {
		if err := step.run(); err != nil {
			return nil, fmt.Errorf("seed %s: %w", step.name, err)
		}
	}
	after, err := s.countEvents()
	if err != nil {
		return nil, err
	}
	s.sum.Events = after - before
	return &s.sum, nil
}

// sandboxKey is the principal of the merchant's sandbox secret key: the
// seed may do exactly what that key may.
func sandboxKey(m *auth.Merchant) *auth.Principal {
	return &auth.Principal{Kind: auth.SecretKey, Merchant: m,
		Scope: store.Scope{MerchantID: m.ID, Livemode: false}}
}

// seeder carries one run: the caller's context, the services, and what was
// made so far.
type seeder struct {
	svc   areas.Services
	ctx   context.Context
	scope store.Scope
	sum   Summary

	planID string // the fee plan pricing the seed's transfers
	// payee is the active account the charges and payouts are made for.
	payee string
	// cards are the payee's test cards: payment method ids by number.
	cards map[string]string
}
