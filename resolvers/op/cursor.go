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
//
// Every row of every keyset page gets one, so it is built on the stack and
// allocates only the string it answers.
func EncodeCursor(p Position) string {
	var raw [cursorRawMax]byte
	text := strconv.AppendInt(raw[:0], p.Created.UnixMicro(), 10)
	text = append(text, ':')
	text = ids.Append(text, p.ID)
	var encoded [cursorEncodedMax]byte
	n := base64.RawURLEncoding.EncodedLen(len(text))
	base64.RawURLEncoding.Encode(encoded[:n], text)
	return string(encoded[:n])
}

// The longest raw cursor: a signed 64-bit integer, the colon, a uuid's 36
// characters; and its base64.
const (
	cursorRawMax     = 20 + 1 + 36
	cursorEncodedMax = (cursorRawMax*8 + 5) / 6
)

// decodeCursor reads a cursor; ok is false for a malformed one.
func decodeCursor(s string) (pos *Position, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, false
	}
	micros, idPart, ok := strings.Cut(string(b), ":")
	if !ok {
		return nil, false
	}
	us, err := strconv.ParseInt(micros, 10, 64)
	if err != nil || us < 0 {
		return nil, false
	}
	id, ok := ids.Parse(idPart)
	if !ok {
		return nil, false
	}
	return &Position{Created: time.UnixMicro(us).UTC(), ID: id}, true
}

// keyset is a validated first/after pair.
type keyset struct {
	first int
	after *Position
}

// ProblemFirst is what a page size out of range answers: a connection's
// first is 1 to models.MaxPerPage. Unlike REST's per_page, which the spec
// clamps to 100, a GraphQL page size is refused when it is out of range,
// not adjusted: a client asking 0, -1 or 500 rows would otherwise get a
// page it did not ask for without a word.
var ProblemFirst = "must be between 1 and " + strconv.Itoa(models.MaxPerPage)

// newKeyset checks first (1..models.MaxPerPage, default
// models.DefaultPerPage) and decodes after; every problem is reported at
// once.
func newKeyset(first *int, after *string) (keyset, error) {
	k := keyset{first: models.DefaultPerPage}
	var problems apierr.Fields
	if first != nil {
		if *first < 1 || *first > models.MaxPerPage {
			problems.Add("first", ProblemFirst)
		} else {
			k.first = *first
		}
	}
	if after != nil && *after != "" {
		if pos, ok := decodeCursor(*after); ok {
			k.after = pos
		} else {
			problems.Add("after", "is not a valid cursor")
		}
	}
	return k, problems.Err()
}
