package resolvers

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Phone verifications load by id (nodes) and by account (the
// Account.phoneVerifications edge).
var (
	phoneLoader           = nodeLoader("phoneVerification", func(r *Resolver) batch[*models.PhoneVerification] { return r.Svc.Accounts.PhoneVerifications.ByIDs })
	phonesOfAccountLoader = loader("phoneVerificationsOfAccount", func(r *Resolver) batch[[]*models.PhoneVerification] {
		return r.Svc.Accounts.PhoneVerifications.OfAccounts
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(phonesOfAccountLoader, "phoneVerifications", func(a *models.Account) string { return a.ID.String() })
	_ = edge(accountLoader, "accountNode", func(v *models.PhoneVerification) string { return v.AccountID.String() })
)

// phoneOfAccount reads one attempt through the loader, as missing when it
// belongs to another account.
func phoneOfAccount(ctx context.Context, accountID, id string) (*models.PhoneVerification, error) {
	return ofAccount(ctx, phoneLoader, "phone_verification", accountID, id,
		func(pv *models.PhoneVerification) uuid.UUID { return pv.AccountID })
}

// phoneList serves the account's attempts as a connection.
func phoneList(ctx context.Context, r *Resolver, accountID string, first *int, after *string, f *accounts.PhoneVerificationFilter) (*model.PhoneVerificationConnection, error) {
	list := func(ctx context.Context, f accounts.PhoneVerificationFilter, lp op.ListParams) (op.Page[*models.PhoneVerification], error) {
		return r.Svc.Accounts.PhoneVerifications.List(ctx, accountID, f, lp)
	}
	edges, info, err := connection(ctx, list, filterOf(f, same[accounts.PhoneVerificationFilter]), first, after, phoneLoader,
		func(cursor string, pv *models.PhoneVerification) *model.PhoneVerificationEdge {
			return &model.PhoneVerificationEdge{Cursor: cursor, Node: pv}
		})
	return &model.PhoneVerificationConnection{Edges: edges, PageInfo: info}, err
}
