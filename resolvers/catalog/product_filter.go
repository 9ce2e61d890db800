package catalog

import (
	"strings"

	"github.com/uptrace/bun"
)

// ProductFilter is what product listings filter by: the REST list (none),
// REST search (name, active, shippable) and the GraphQL connection.
type ProductFilter struct {
	// Name matches a substring of the name, in any case.
	Name              *string
	Active, Shippable *bool
}

func (f ProductFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Name != nil && strings.TrimSpace(*f.Name) != "" {
		q = q.Where("pr.search_name LIKE ?", "%"+likeEscape(strings.ToLower(strings.TrimSpace(*f.Name)))+"%")
	}
	if f.Active != nil {
		q = q.Where("pr.active = ?", *f.Active)
	}
	if f.Shippable != nil {
		q = q.Where("pr.shippable = ?", *f.Shippable)
	}
	return q
}
