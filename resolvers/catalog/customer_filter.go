package catalog

import (
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CustomerFilter is what customer listings filter by: the REST list
// (email), REST search (every field, by its query parameter) and the
// GraphQL connection. Deleted customers are never listed.
type CustomerFilter struct {
	// Q matches a substring of the e-mail or the name, in any case, or the
	// phone number exactly.
	Q *string `query:"q" filter:"-"`
	// Name matches a substring, in any case (the name as written, spaces
	// included).
	Name *string `query:"name" filter:"-"`
	// Email matches exactly, in any case.
	Email *string `query:"email" filter:"search_email,lower"`
	// Phone matches the number in E.164, however it is written.
	Phone *string `query:"phone" filter:"-"`
	// CreatedBefore and CreatedAfter bound the creation time (Unix
	// seconds, exclusive).
	CreatedBefore *int64 `query:"created_before" filter:"created,before"`
	CreatedAfter  *int64 `query:"created_after" filter:"created,after"`
}

// Check bounds the text parameters.
func (f CustomerFilter) Check(fields *apierr.Fields) {
	for _, p := range []struct {
		name string
		v    *string
	}{{"q", f.Q}, {"name", f.Name}, {"email", f.Email}, {"phone", f.Phone}} {
		if p.v != nil && len(*p.v) > 254 {
			fields.Add(p.name, "must be at most 254 characters")
		}
	}
}

// Apply leaves deleted customers out and adds the conditions of q, name
// and phone.
func (f CustomerFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	q = q.Where("cu.deleted IS NULL")
	if f.Q != nil && strings.TrimSpace(*f.Q) != "" {
		term := strings.ToLower(strings.TrimSpace(*f.Q))
		like := "%" + op.LikeEscape(term) + "%"
		phone, _ := models.CustomerPhone(term)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			q = q.Where("cu.search_email LIKE ?", like).WhereOr("cu.search_name LIKE ?", like)
			if phone != "" {
				q = q.WhereOr("cu.phone = ?", phone)
			}
			return q
		})
	}
	q = whereNameContains(q, "cu", f.Name)
	if f.Phone != nil {
		phone, ok := models.CustomerPhone(*f.Phone)
		if !ok {
			phone = strings.TrimSpace(*f.Phone)
		}
		q = q.Where("cu.phone = ?", phone)
	}
	return q
}

// whereNameContains matches a substring of the lower-cased name column
// (search_name) of the table aliased alias, in any case; a blank name asks
// nothing.
func whereNameContains(q *bun.SelectQuery, alias string, name *string) *bun.SelectQuery {
	if name == nil || strings.TrimSpace(*name) == "" {
		return q
	}
	return q.Where("?.search_name LIKE ?", bun.Ident(alias), "%"+op.LikeEscape(strings.ToLower(strings.TrimSpace(*name)))+"%")
}
