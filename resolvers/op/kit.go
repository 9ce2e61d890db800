// Package op is the kit every service of the operation layer is built on:
// the one write path (Write), the one list function (List), batched reads
// by id (ByIDs) and cursors. It imports nothing from the transports: REST
// and GraphQL call the services, the services call this.
package op

import (
	"log/slog"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Kit is what every service shares.
type Kit struct {
	DB     *store.DB
	Clock  clock.Clock
	Logger *slog.Logger
	// Secret keys the fingerprints the server stores of request parameters
	// (idempotency), so that a stored fingerprint reveals nothing of what
	// was sent. Every process serving one database must use the same one.
	Secret *secrets.Source
	// Jobs enqueues background work in a write's transaction (W.Enqueue).
	Jobs *jobs.Engine
}
