package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ListCapabilities returns every capability of the account.
func (s *Service) ListCapabilities(ctx context.Context, accountID string) ([]*models.Capability, error) {
	return s.CapabilitiesOf(ctx, accountID, s.Accounts.Get)
}

// GetCapability returns the account's capability called name.
func (s *Service) GetCapability(ctx context.Context, accountID, name string) (*models.Capability, error) {
	return s.CapabilityOf(ctx, accountID, name, s.Accounts.Get)
}

// CapabilitiesOf answers ListCapabilities from an account read through
// read (GetAccount, or a GraphQL dataloader batching many lookups): the
// secret key is required first, then the account must be visible.
func (s *Service) CapabilitiesOf(ctx context.Context, accountID string,
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

// CapabilityOf answers GetCapability as CapabilitiesOf answers
// ListCapabilities.
func (s *Service) CapabilityOf(ctx context.Context, accountID, name string,
	read func(ctx context.Context, id string) (*models.Account, error)) (*models.Capability, error) {
	caps, err := s.CapabilitiesOf(ctx, accountID, read)
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

// CapabilitiesByIDs reads many capabilities by their own ids, with their
// derived members (currently_due, errors), which need their accounts: it
// loads the accounts owning them with all their capabilities in one
// statement. Like ListCapabilities, it needs a secret key.
func (s *Service) CapabilitiesByIDs(ctx context.Context, idList []string) ([]*models.Capability, []error) {
	p, err := auth.Require(ctx, auth.SecretKey)
	return op.ByIDs(idList, "capability", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.Capability, error) {
		t := s.DB.Tenant(p.Scope)
		owners := t.Select((*models.Capability)(nil)).ColumnExpr("c.account_id").Where("c.id IN (?)", bun.In(want))
		var accts []*models.Account
		if err := withCapabilities(t.Select(&accts)).Where("a.id IN (?)", owners).Scan(ctx); err != nil {
			return nil, err
		}
		if err := s.hydrate(accts); err != nil {
			return nil, err
		}
		found := map[uuid.UUID]*models.Capability{}
		for _, a := range accts {
			for _, c := range a.Capabilities {
				found[c.ID] = c
			}
		}
		return found, nil
	})
}
