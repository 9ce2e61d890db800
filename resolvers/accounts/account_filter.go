package accounts

import (
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
)

// AccountFilter is what every account listing filters by: the REST list,
// REST search and the GraphQL connection build one and call
// Accounts.List, so the three cannot drift apart.
type AccountFilter struct {
	Status     *models.AccountStatus `query:"status" filter:"status,enum"`
	Type       *models.AccountType   `query:"type" filter:"type,enum"`
	ExternalID *string               `query:"external_id" filter:"external_id"`
	// Name matches a substring of the person's or the business's names, in
	// any case (search_name holds the name parts joined by single spaces,
	// lower case); Email matches exactly, in any case.
	Name  *string `query:"name" filter:"search_name,contains"`
	Email *string `query:"email" filter:"search_email,lower"`
	// IncludeDisabled keeps disabled accounts when no status is asked for;
	// lists leave them out by default, search does not.
	IncludeDisabled *bool `query:"include_disabled" filter:"-"`
}

// Apply leaves disabled accounts out unless a status or IncludeDisabled
// asks for them.
func (f AccountFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Status == nil && (f.IncludeDisabled == nil || !*f.IncludeDisabled) {
		q = q.Where("?TableAlias.status <> 'disabled'")
	}
	return q
}
