package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
)

// Beneficial owners load by id (they are nodes) and by account (the
// Account.beneficialOwners edge), each one statement per batch.
var (
	beneficialOwnerLoader = nodeLoader("beneficialOwner", func(r *Resolver) batch[*models.BeneficialOwner] { return r.Svc.Accounts.Owners.ByIDs })
	ownersOfAccountLoader = loader("beneficialOwnersOfAccount", func(r *Resolver) batch[[]*models.BeneficialOwner] { return r.Svc.Accounts.Owners.OfAccounts })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(ownersOfAccountLoader, "beneficialOwners", func(a *models.Account) string { return a.ID.String() })
	_ = edge(accountLoader, "account", func(o *models.BeneficialOwner) string { return o.AccountID.String() })
)

// ownerOfAccount reads one owner through the loader, as missing when it
// belongs to another account.
func ownerOfAccount(ctx context.Context, accountID, id string) (*models.BeneficialOwner, error) {
	o, err := load(ctx, beneficialOwnerLoader, id)
	if err != nil {
		return nil, err
	}
	if o.AccountID.String() != accountID {
		return nil, apierr.NotFound("beneficial_owner", id)
	}
	return o, nil
}
