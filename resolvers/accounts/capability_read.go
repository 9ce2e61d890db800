package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Capabilities is the capability family of the area: the capabilities of
// an account are read with the account (accountTable's capabilities
// column), and change through the account's write (capability_ops.go).
type Capabilities struct{ svc *Service }

// List returns every capability of the account.
func (cs *Capabilities) List(ctx context.Context, accountID string) ([]*models.Capability, error) {
	return cs.Of(ctx, accountID, cs.svc.Accounts.Get)
}

// Get returns the account's capability called name.
func (cs *Capabilities) Get(ctx context.Context, accountID, name string) (*models.Capability, error) {
	return cs.OneOf(ctx, accountID, name, cs.svc.Accounts.Get)
}

// Of answers List from an account read through read
// (Accounts.Get, or a GraphQL dataloader batching many lookups): the
// secret key is required first, then the account must be visible.
func (cs *Capabilities) Of(ctx context.Context, accountID string,
	read func(ctx context.Context, id string) (*models.Account, error)) ([]*models.Capability, error) {
	if _, err := auth.Require(ctx, auth.SecretKey); err != nil {
		return nil, err
	}
	a, err := read(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return a.Capabilities, nil
}

// OneOf answers Get as Of answers List.
func (cs *Capabilities) OneOf(ctx context.Context, accountID, name string,
	read func(ctx context.Context, id string) (*models.Account, error)) (*models.Capability, error) {
	caps, err := cs.Of(ctx, accountID, read)
	if err != nil {
		return nil, err
	}
	for _, c := range caps {
		if string(c.Name) == name {
			return c, nil
		}
	}
	return nil, capabilityNotFound(name)
}

// ByIDs reads many capabilities by their own ids, with their
// derived members (currently_due, errors), which need their accounts: it
// loads the accounts owning them with all their capabilities in one
// statement. Like List, it needs a secret key.
func (cs *Capabilities) ByIDs(ctx context.Context, idList []string) ([]*models.Capability, []error) {
	s := cs.svc
	p, err := auth.Require(ctx, auth.SecretKey)
	return op.ByIDs(idList, "capability", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Capability, error) {
		t := s.DB.Tenant(p.Scope)
		owners := t.Select((*models.Capability)(nil)).ColumnExpr("c.account_id").Where("c.id IN (?)", bun.In(want))
		var accts []*models.Account
		if err := accountTable.Select(t, p, &accts).Where("a.id IN (?)", owners).Scan(ctx); err != nil {
			return nil, err
		}
		if err := accountTable.LoadEmbedded(accts...); err != nil {
			return nil, err
		}
		s.hydrate(ctx, accts)
		found := map[uuid.UUID]*models.Capability{}
		for _, a := range accts {
			for _, c := range a.Capabilities {
				found[c.ID] = c
			}
		}
		return found, nil
	})
}
