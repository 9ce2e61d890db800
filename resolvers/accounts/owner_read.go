package accounts

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Owners is the beneficial owner family of the area: the roster of an
// account (here), its changes (owner_write.go) and its certification
// (owner_confirm.go). Secret key only (spec doc 1 §5.6).
type Owners struct {
	// OfAccounts reads the listed rosters of many accounts in one statement
	// (GraphQL's Account.beneficialOwners), one roster per account id, in
	// id order; an id without owners gets an empty roster.
	OfAccounts op.Batch[[]*models.BeneficialOwner]
	svc        *Service
}

var ownerTable = &op.Table[models.BeneficialOwner]{Resource: "beneficial_owner"}

// rosters are the listed owners of accounts: owners created with their
// details and invited owners who completed them, oldest first (the order
// they were named). Pending invitations are not listed (they are
// retrievable by id). A roster holds at most MaxBeneficialOwners.
var rosters = &op.Children[models.BeneficialOwner]{Table: ownerTable, Parent: "account", Column: "account_id",
	Where: func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("?TableAlias.status <> ?", models.OwnerInviteSent)
	},
	Order: "?TableAlias.created, ?TableAlias.id"}

func newOwners(s *Service) *Owners {
	return &Owners{OfAccounts: rosters.Bind(s.Kit), svc: s}
}

// List answers the account's roster as the spec lists it (rosters). An
// unknown account is 404, not an empty roster: one statement, and a
// second only when the roster is empty.
func (ow *Owners) List(ctx context.Context, accountID string) ([]*models.BeneficialOwner, error) {
	s := ow.svc
	lists, errs := rosters.Load(ctx, s.Kit, []string{accountID})
	if errs[0] != nil {
		return nil, errs[0]
	}
	if len(lists[0]) > 0 {
		return lists[0], nil
	}
	aid, _ := ids.Parse(accountID) // rosters.Load refused an id that does not parse
	return lists[0], requireAccount(ctx, s.DB.Tenant(auth.FromContext(ctx).Scope), aid, accountID, false)
}

// Get answers one owner of the account (invited ones included); an owner
// of another account is 404.
func (ow *Owners) Get(ctx context.Context, accountID, id string) (*models.BeneficialOwner, error) {
	return ownerTable.GetOf(ctx, ow.svc.Kit, "account_id", "account", accountID, id)
}

// ByIDs reads owners by id (GraphQL's loader and node).
func (ow *Owners) ByIDs(ctx context.Context, idList []string) ([]*models.BeneficialOwner, []error) {
	return ownerTable.ByIDs(ctx, ow.svc.Kit, idList)
}
