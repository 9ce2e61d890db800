// Package resolvers is the operation layer: every API operation is a method
// here, called by the REST handlers and by the GraphQL resolvers alike, so
// both transports share every rule. A method authorizes the caller,
// validates, runs one transaction and emits its events inside it.
package resolvers

import (
	"log/slog"

	"github.com/frame-oss/payments-server/internal/capability"
	"github.com/frame-oss/payments-server/internal/clock"
	"github.com/frame-oss/payments-server/internal/store"
	"github.com/frame-oss/payments-server/models"
)

// Resolver is the root of the operation layer (and of the GraphQL resolvers).
type Resolver struct {
	DB     *store.DB
	Clock  clock.Clock
	Logger *slog.Logger

	// FactsHook, when set, adjusts the facts the requirement rules see for
	// an account. Verification flows that are not stored yet (phone,
	// identity runs, payment methods) report through here in tests.
	FactsHook func(a *models.Account, f *capability.Facts)
}
