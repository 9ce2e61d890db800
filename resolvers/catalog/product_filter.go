package catalog

import (
	"github.com/uptrace/bun"
)

// ProductFilter is what product listings filter by: the REST list (none),
// REST search (name, active, shippable) and the GraphQL connection.
type ProductFilter struct {
	// Name matches a substring of the name, in any case (as written,
	// spaces included).
	Name      *string `query:"name" filter:"-"`
	Active    *bool   `query:"active" filter:"active"`
	Shippable *bool   `query:"shippable" filter:"shippable"`
}

// Apply adds the name's condition.
func (f ProductFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	return whereNameContains(q, "pr", f.Name)
}
