package catalog

import (
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
)

// CustomerFilter is what every customer listing filters by: the REST list
// (email), REST search (q, name, email, phone, created_before,
// created_after) and the GraphQL connection build one and call
// ListCustomers. Deleted customers are never listed.
type CustomerFilter struct {
	// Q matches a substring of the e-mail or the name, in any case, or the
	// phone number exactly.
	Q *string
	// Name matches a substring, in any case; Email matches exactly, in any
	// case; Phone matches the number in E.164, however it is written.
	Name, Email, Phone *string
	// CreatedBefore and CreatedAfter bound the creation time (Unix
	// seconds, exclusive).
	CreatedBefore, CreatedAfter *int64
}

func (f CustomerFilter) validate() error {
	var fields apierr.Fields
	for name, v := range map[string]*string{"q": f.Q, "name": f.Name, "email": f.Email, "phone": f.Phone} {
		if v != nil && len(*v) > 254 {
			fields.Add(name, "must be at most 254 characters")
		}
	}
	return fields.Err()
}

func (f CustomerFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	q = q.Where("cu.deleted IS NULL")
	if f.Q != nil && strings.TrimSpace(*f.Q) != "" {
		term := strings.ToLower(strings.TrimSpace(*f.Q))
		like := "%" + likeEscape(term) + "%"
		phone, _ := models.CustomerPhone(term)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			q = q.Where("cu.search_email LIKE ?", like).WhereOr("cu.search_name LIKE ?", like)
			if phone != "" {
				q = q.WhereOr("cu.phone = ?", phone)
			}
			return q
		})
	}
	if f.Name != nil && strings.TrimSpace(*f.Name) != "" {
		q = q.Where("cu.search_name LIKE ?", "%"+likeEscape(strings.ToLower(strings.TrimSpace(*f.Name)))+"%")
	}
	if f.Email != nil {
		q = q.Where("cu.search_email = ?", strings.ToLower(strings.TrimSpace(*f.Email)))
	}
	if f.Phone != nil {
		phone, ok := models.CustomerPhone(*f.Phone)
		if !ok {
			phone = strings.TrimSpace(*f.Phone)
		}
		q = q.Where("cu.phone = ?", phone)
	}
	if f.CreatedBefore != nil {
		q = q.Where("cu.created < ?", time.Unix(*f.CreatedBefore, 0).UTC())
	}
	if f.CreatedAfter != nil {
		q = q.Where("cu.created > ?", time.Unix(*f.CreatedAfter, 0).UTC())
	}
	return q
}

// likeEscape escapes LIKE wildcards in user input.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
