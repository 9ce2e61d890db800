package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// runReaders may read identity verification runs (secret key only).
var runReaders = []auth.Kind{auth.SecretKey}

// IdentityRuns is the identity verification run family of the area: an
// account's runs (here), a new run (identity_run_create.go) and the
// sandbox provider's verdict, a job (identity_run_conclude.go).
type IdentityRuns struct {
	// OfAccounts reads the newest RecentChildren runs of many accounts in
	// one statement (GraphQL's Account.identityVerifications).
	OfAccounts op.Batch[[]*models.IdentityVerification]
	svc        *Service
}

var runTable = &op.Table[models.IdentityVerification]{Resource: "identity_verification", Allow: runReaders}

func newIdentityRuns(s *Service) *IdentityRuns {
	return &IdentityRuns{svc: s, OfAccounts: (&op.Children[models.IdentityVerification]{
		Table: runTable, Parent: "account", Column: "account_id", Limit: RecentChildren}).Bind(s.Kit)}
}

// IdentityVerificationFilter narrows an account's runs (spec doc 1 §4.5).
type IdentityVerificationFilter struct {
	Status   *models.RunStatus        `query:"status" filter:"status,enum"`
	Provider *models.IdentityProvider `query:"provider" filter:"provider,enum"`

	// account is the account whose runs are listed (List sets it).
	account uuid.UUID
}

// Apply keeps the listed account's runs.
func (f IdentityVerificationFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Where("?TableAlias.account_id = ?", f.account)
}

// List is the one list of an account's runs, most recent first (the REST
// list and the GraphQL connection). An unknown account is 404.
func (rs *IdentityRuns) List(ctx context.Context, accountID string, f IdentityVerificationFilter, lp op.ListParams) (op.Page[*models.IdentityVerification], error) {
	return listOfAccount(ctx, rs.svc, runTable, runReaders, accountID, f,
		func(f *IdentityVerificationFilter, account uuid.UUID) { f.account = account }, lp)
}

// Get answers one run of the account.
func (rs *IdentityRuns) Get(ctx context.Context, accountID, id string) (*models.IdentityVerification, error) {
	return runTable.GetOf(ctx, rs.svc.Kit, "account_id", "account", accountID, id)
}

// ByIDs reads runs by id (GraphQL's loader and node).
func (rs *IdentityRuns) ByIDs(ctx context.Context, idList []string) ([]*models.IdentityVerification, []error) {
	return runTable.ByIDs(ctx, rs.svc.Kit, idList)
}

// RecentChildren is how many of an account's runs, phone verifications or
// bank accounts (or of a customer's identity verifications) the parent's
// GraphQL edge lists (the newest); the connection of the root query pages
// through all of them.
const RecentChildren = 100

// requireAccount answers 404 for an account the tenant does not hold,
// asking the database only when found says nothing (an empty page).
func requireAccount(ctx context.Context, t *store.Tenant, aid uuid.UUID, accountID string, found bool) error {
	if found {
		return nil
	}
	ok, err := accountRows.Select(t, nil, (*models.Account)(nil)).Where("a.id = ?", aid).Exists(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return apierr.NotFound("account", accountID)
	}
	return nil
}
