package resolvers

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/ids"
	"github.com/frame-oss/payments-server/models"
)

// Keyset pagination for the GraphQL connections: rows are ordered by
// (created, id) descending, newest first, and a cursor names the last row a
// client saw. Unlike page numbers, a cursor neither skips nor repeats rows
// when rows are added between requests.

// keysetPosition is the (created, id) of one row.
type keysetPosition struct {
	created time.Time
	id      uuid.UUID
}

// encodeCursor makes the opaque cursor of a row: base64 of
// "<created in Unix microseconds>:<uuid>". Postgres keeps microseconds, so
// the cursor names the row exactly.
func encodeCursor(created time.Time, id uuid.UUID) string {
	raw := strconv.FormatInt(created.UnixMicro(), 10) + ":" + id.String()
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// decodeCursor reads a cursor; a malformed one is a validation error on
// param.
func decodeCursor(param, s string) (*keysetPosition, error) {
	bad := apierr.FieldError(param, "is not a valid cursor")
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, bad
	}
	micros, idPart, ok := strings.Cut(string(b), ":")
	if !ok {
		return nil, bad
	}
	us, err := strconv.ParseInt(micros, 10, 64)
	if err != nil || us < 0 {
		return nil, bad
	}
	id, ok := ids.Parse(idPart)
	if !ok {
		return nil, bad
	}
	return &keysetPosition{created: time.UnixMicro(us).UTC(), id: id}, nil
}

// keysetRequest is a validated first/after pair.
type keysetRequest struct {
	first int
	after *keysetPosition
}

// newKeysetRequest clamps first to 1..models.MaxPerPage (default
// models.DefaultPerPage)
// and decodes after.
func newKeysetRequest(first *int, after *string) (keysetRequest, error) {
	req := keysetRequest{first: models.DefaultPerPage}
	if first != nil {
		req.first = min(max(*first, 1), models.MaxPerPage)
	}
	if after != nil && *after != "" {
		pos, err := decodeCursor("after", *after)
		if err != nil {
			return req, err
		}
		req.after = pos
	}
	return req, nil
}

// apply orders q newest first, starts it after the cursor and fetches one
// look-ahead row, which tells whether there is a next page without counting.
// alias is the table alias of q's model.
func (k keysetRequest) apply(q *bun.SelectQuery, alias string) *bun.SelectQuery {
	if k.after != nil {
		q = q.Where("(?.created, ?.id) < (?, ?)", bun.Ident(alias), bun.Ident(alias), k.after.created, k.after.id)
	}
	return q.OrderExpr("?.created DESC, ?.id DESC", bun.Ident(alias), bun.Ident(alias)).Limit(int64(k.first) + 1)
}

// keysetPage drops the look-ahead row and builds the page info; cursorOf gives a
// row's cursor.
func keysetPage[T any](k keysetRequest, rows []T, cursorOf func(T) string) ([]T, *model.PageInfo) {
	info := &model.PageInfo{HasPreviousPage: k.after != nil}
	if len(rows) > k.first {
		rows = rows[:k.first]
		info.HasNextPage = true
	}
	if len(rows) > 0 {
		start, end := cursorOf(rows[0]), cursorOf(rows[len(rows)-1])
		info.StartCursor, info.EndCursor = &start, &end
	}
	return rows, info
}
