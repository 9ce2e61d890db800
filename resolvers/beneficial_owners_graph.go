package resolvers

import (
	"context"

	"github.com/google/uuid"

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
	return ofAccount(ctx, beneficialOwnerLoader, "beneficial_owner", accountID, id,
		func(o *models.BeneficialOwner) uuid.UUID { return o.AccountID })
}
