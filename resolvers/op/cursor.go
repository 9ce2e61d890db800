package op

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
)

// Keyset pagination: a cursor names the last row a client saw. Unlike page
// numbers, a cursor neither skips nor repeats rows when rows are added
// between requests.

// EncodeCursor makes the opaque cursor of a position: base64 of
// "<created in Unix microseconds>:<uuid>". PostgreSQL keeps microseconds,
// so the cursor names the row exactly.
func EncodeCursor(p Position) string {
	raw := strconv.FormatInt(p.Created.UnixMicro(), 10) + ":" + p.ID.String()
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// decodeCursor reads a cursor; a malformed one is a validation error on
// param.
func decodeCursor(param, s string) (*Position, error) {
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
	return &Position{Created: time.UnixMicro(us).UTC(), ID: id}, nil
}

// keyset is a validated first/after pair.
type keyset struct {
	first int
	after *Position
}

// newKeyset clamps first to 1..models.MaxPerPage (default
// models.DefaultPerPage) and decodes after.
func newKeyset(first *int, after *string) (keyset, error) {
	k := keyset{first: models.DefaultPerPage}
	if first != nil {
		k.first = min(max(*first, 1), models.MaxPerPage)
	}
	if after != nil && *after != "" {
		pos, err := decodeCursor("after", *after)
		if err != nil {
			return k, err
		}
		k.after = pos
	}
	return k, nil
}
