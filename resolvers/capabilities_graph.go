package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/models"
)

// capabilityLoader batches capability reads by id; capabilities are nodes.
// Their accounts derive what the operation selects (accountReads).
var (
	capabilityLoader = nodeLoader("capability", func(r *Resolver) batch[*models.Capability] {
		return func(ctx context.Context, ids []string) ([]*models.Capability, []error) {
			return r.Svc.Accounts.Capabilities.ByIDs(accountReads(ctx), ids)
		}
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountLoader, "account", func(c *models.Capability) string { return c.AccountID.String() })
)
