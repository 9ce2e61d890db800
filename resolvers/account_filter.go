package resolvers

import (
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/apierr"
)

var (
	accountStatuses = []string{"pending", "active", "restricted", "disabled"}
	accountTypes    = []string{"individual", "business"}
)

// accountFilter is what every account listing (REST list and search, the
// GraphQL connection) filters by, so the three cannot drift apart.
type accountFilter struct {
	Status, Type, ExternalID, Name, Email *string
	// IncludeDisabled keeps disabled accounts when no status is asked for;
	// lists leave them out by default, search does not.
	IncludeDisabled bool
}

func (f accountFilter) validate(fields *apierr.Fields) {
	checkEnum(fields, "status", f.Status, accountStatuses)
	checkEnum(fields, "type", f.Type, accountTypes)
}

func (f accountFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
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

func ptr[T any](v T) *T { return &v }
