package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Accounts is the account family of the area: reads (here, and the
// prepared read by id of account_queries.go), Create (account_create.go),
// Update (account_update.go), the holds (account_holds.go), the KYC
// prefill confirmation (prefill_confirm.go) and the card requirement
// other areas report (account_cards.go).
type Accounts struct{ svc *Service }

// readers are the credentials that may read an account: publishable keys
// and session secrets too (their own account, for sessions), with the
// merchant-internal fields left out.
var readers = []auth.Kind{auth.SecretKey, auth.PublishableKey, auth.OnboardingSession, auth.CheckoutSession}

// accountTable reads accounts with their capabilities, one statement for
// one account or a page (capabilitiesOfAccount). A session secret sees
// its own account only, refused without a statement. The derived members
// need the service (its facts hook), so reads complete them with hydrate
// rather than the table's Derive.
var accountTable = &op.Table[models.Account]{Resource: "account", Allow: readers,
	Sees: (*auth.Principal).SeesAccount, Embedded: []op.Embedding[models.Account]{capabilitiesOfAccount}}

// accountRows is the account's own row, without its capabilities: what a
// write locks (see lockAccount).
var accountRows = &op.Table[models.Account]{Resource: "account", Sees: (*auth.Principal).SeesAccount, Referenced: true}

// Get returns one account as the caller may see it: one prepared
// statement, the account with its capabilities.
func (as *Accounts) Get(ctx context.Context, id string) (*models.Account, error) {
	s := as.svc
	p, err := auth.Require(ctx, readers...)
	if err != nil {
		return nil, err
	}
	a, err := findAccount(ctx, s.DB.Tenant(p.Scope), p, id)
	if err != nil {
		return nil, err
	}
	s.hydrate(ctx, []*models.Account{a})
	return present(ctx, a), nil
}

// ByIDs reads many accounts as Get reads one: the same credentials, scope
// rules, resource_missing and visibility. One statement whatever the
// number of ids (none when no id can match).
func (as *Accounts) ByIDs(ctx context.Context, idList []string) ([]*models.Account, []error) {
	s := as.svc
	rows, errs := accountTable.ByIDs(ctx, s.Kit, idList)
	var found []*models.Account
	for i, a := range rows {
		if errs[i] == nil {
			found = append(found, a)
		}
	}
	s.hydrate(ctx, found)
	for _, a := range found {
		present(ctx, a)
	}
	return rows, errs
}

// List is the one list of accounts, newest first: the REST list
// (disabled accounts only when asked for), REST search (name, e-mail,
// external_id, status, type) and the GraphQL connection, from a replica
// when the request allows and it has the caller's last write
// (store.DB.ReadTenant), so a write is seen at once by its writer. Secret key only. One statement
// whatever the page size: the page, each account with its capabilities.
func (as *Accounts) List(ctx context.Context, f AccountFilter, lp op.ListParams) (op.Page[*models.Account], error) {
	s := as.svc
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return op.Page[*models.Account]{}, err
	}
	page, err := accountTable.ListIn(ctx, s.Kit, s.DB.ReadTenant(ctx, p.Scope), p, f, lp)
	if err != nil {
		return page, err
	}
	s.hydrate(ctx, page.Items)
	for _, a := range page.Items {
		present(ctx, a)
	}
	return page, nil
}
