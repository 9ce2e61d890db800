package resolvers

import (
	"strings"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/capability"
)

// bunIn expands a slice into an IN list.
func bunIn[T any](v []T) any { return bun.In(v) }

// capabilityOrderSQL sorts capabilities in catalogue order.
var capabilityOrderSQL = func() string {
	var b strings.Builder
	b.WriteString("array_position(ARRAY[")
	for i, n := range capability.AllNames() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("'" + string(n) + "'")
	}
	b.WriteString("]::text[], c.name)")
	return b.String()
}()

// likeEscape escapes LIKE wildcards in user input.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
