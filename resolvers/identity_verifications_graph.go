package resolvers

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Identity verification runs load by id (nodes) and by account (the
// Account.identityVerifications edge).
var (
	runLoader           = nodeLoader("identityVerification", func(r *Resolver) batch[*models.IdentityVerification] { return r.Svc.Accounts.IdentityRuns.ByIDs })
	runsOfAccountLoader = loader("identityVerificationsOfAccount", func(r *Resolver) batch[[]*models.IdentityVerification] { return r.Svc.Accounts.IdentityRuns.OfAccounts })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(runsOfAccountLoader, "identityVerifications", func(a *models.Account) string { return a.ID.String() })
	_ = edge(accountLoader, "accountNode", func(v *models.IdentityVerification) string { return v.AccountID.String() })
)

// runOfAccount reads one run through the loader, as missing when it
// belongs to another account.
func runOfAccount(ctx context.Context, accountID, id string) (*models.IdentityVerification, error) {
	return ofAccount(ctx, runLoader, "identity_verification", accountID, id,
		func(run *models.IdentityVerification) uuid.UUID { return run.AccountID })
}

// runList serves the account's runs as a connection.
func runList(ctx context.Context, r *Resolver, accountID string, first *int, after *string, f *accounts.IdentityVerificationFilter) (*model.IdentityVerificationConnection, error) {
	list := func(ctx context.Context, f accounts.IdentityVerificationFilter, lp op.ListParams) (op.Page[*models.IdentityVerification], error) {
		return r.Svc.Accounts.IdentityRuns.List(ctx, accountID, f, lp)
	}
	edges, info, err := connection(ctx, list, filterOf(f, same[accounts.IdentityVerificationFilter]), first, after, runLoader,
		func(cursor string, run *models.IdentityVerification) *model.IdentityVerificationEdge {
			return &model.IdentityVerificationEdge{Cursor: cursor, Node: run}
		})
	return &model.IdentityVerificationConnection{Edges: edges, PageInfo: info}, err
}
