// Package merchant is the area of the operation layer about the caller
// itself rather than a resource it owns: who the credential is (the
// viewer) and the live log of its requests (docs/decisions.md, "The CLI").
package merchant

import (
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/requestlog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Service runs the area's operations.
type Service struct {
	*op.Kit
	requests *requestlog.Feed // the live request log (UseRequestLog)
}

// New returns the area's service over kit.
func New(kit *op.Kit) *Service { return &Service{Kit: kit} }

// secretOnly is who may call the area: the merchant's secret keys (a
// publishable key or a session secret is 403).
var secretOnly = []auth.Kind{auth.SecretKey}
