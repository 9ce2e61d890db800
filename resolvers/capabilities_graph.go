package resolvers

import (
	"github.com/frame-oss/payments-server/models"
)

// capabilityLoader batches capability reads by id; capabilities are nodes.
var (
	capabilityLoader = nodeLoader("capability", func(r *Resolver) batch[*models.Capability] { return r.Svc.Accounts.Capabilities.ByIDs })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountLoader, "account", func(c *models.Capability) string { return c.AccountID.String() })
)
