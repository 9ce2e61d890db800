package accounts

import (
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

var (
	accountStatuses = []string{"pending", "active", "restricted", "disabled"}
	accountTypes    = []string{"individual", "business"}
)

// AccountFilter is what every account listing filters by: the REST list,
// REST search and the GraphQL connection build one and call ListAccounts,
// so the three cannot drift apart.
type AccountFilter struct {
	Status, Type, ExternalID *string
	// Name matches a substring of the person's or the business's names, in
	// any case; Email matches exactly, in any case.
	Name, Email *string
	// IncludeDisabled keeps disabled accounts when no status is asked for;
	// lists leave them out by default, search does not.
	IncludeDisabled bool
}

func (f AccountFilter) validate() error {
	var fields apierr.Fields
	checkEnum(&fields, "status", f.Status, accountStatuses)
	checkEnum(&fields, "type", f.Type, accountTypes)
	return fields.Err()
}

func (f AccountFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Status != nil {
		q = q.Where("a.status = ?", *f.Status)
	} else if !f.IncludeDisabled {
		q = q.Where("a.status <> 'disabled'")
	}
	if f.Type != nil {
		q = q.Where("a.type = ?", *f.Type)
	}
	if f.ExternalID != nil {
		q = q.Where("a.external_id = ?", *f.ExternalID)
	}
	if f.Name != nil && strings.TrimSpace(*f.Name) != "" {
		// search_name holds the name parts joined by single spaces, lower
		// case: match the query normalized the same way.
		name := strings.Join(strings.Fields(strings.ToLower(*f.Name)), " ")
		q = q.Where("a.search_name LIKE ?", "%"+likeEscape(name)+"%")
	}
	if f.Email != nil {
		q = q.Where("a.search_email = ?", strings.ToLower(strings.TrimSpace(*f.Email)))
	}
	return q
}

func checkEnum(f *apierr.Fields, path string, v *string, allowed []string) {
	if v == nil {
		return
	}
	for _, a := range allowed {
		if *v == a {
			return
		}
	}
	f.Add(path, "must be one of: "+strings.Join(allowed, ", "))
}

// likeEscape escapes LIKE wildcards in user input.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
