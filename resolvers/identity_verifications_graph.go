package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Identity verification runs load by id (nodes) and by account (the
// Account.identityVerifications edge).
var (
	runLoader = loader("identityVerification", func(r *Resolver) loaders.Fetch[*models.IdentityVerification] {
		return r.Svc.Accounts.IdentityVerificationsByIDs
	})
	_                   = node(runLoader)
	runsOfAccountLoader = loader("identityVerificationsOfAccount", func(r *Resolver) loaders.Fetch[[]*models.IdentityVerification] {
		return r.Svc.Accounts.IdentityVerificationsOfAccounts
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(runsOfAccountLoader, "identityVerifications", func(a *models.Account) string { return a.ID.String() })
	_ = edge(accountLoader, "accountNode", func(v *models.IdentityVerification) string { return v.AccountID.String() })
)

// runOfAccount reads one run through the loader, as missing when it
// belongs to another account.
func runOfAccount(ctx context.Context, accountID, id string) (*models.IdentityVerification, error) {
	run, err := load(ctx, runLoader, id)
	if err != nil {
		return nil, err
	}
	if run.AccountID.String() != accountID {
		return nil, apierr.NotFound("identity_verification", id)
	}
	return run, nil
}

func runFilter(f *model.IdentityVerificationFilter) accounts.IdentityVerificationFilter {
	if f == nil {
		return accounts.IdentityVerificationFilter{}
	}
	return accounts.IdentityVerificationFilter{Status: strPtr(f.Status), Provider: f.Provider}
}

func runConnection(page op.Page[*models.IdentityVerification]) *model.IdentityVerificationConnection {
	edges, info := connect(page, func(c string, run *models.IdentityVerification) *model.IdentityVerificationEdge {
		return &model.IdentityVerificationEdge{Cursor: c, Node: run}
	})
	return &model.IdentityVerificationConnection{Edges: edges, PageInfo: info}
}
