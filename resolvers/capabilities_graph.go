package resolvers

import (
	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/models"
)

// capabilityLoader batches capability reads by id; capabilities are nodes.
var (
	capabilityLoader = loader("capability", func(r *Resolver) loaders.Fetch[*models.Capability] {
		return r.Svc.Accounts.Capabilities.ByIDs
	})
	_ = node(capabilityLoader)
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountLoader, "account", func(c *models.Capability) string { return c.AccountID.String() })
)
