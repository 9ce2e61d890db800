package model

import (
	"encoding/hex"
	"io"
	"time"

	"github.com/google/uuid"
)

// The scalars every object of a page shows (an id, a time, a currency)
// were written through graphql.MarshalString of a string made for the
// purpose: the string and the marshaler that keeps it, two allocations a
// field. quotedText is the JSON string itself, quotes included, in one:
// the same bytes graphql.MarshalString writes for those strings, which
// need no escaping (TestQuotedScalarsWriteWhatMarshalStringWrites).

// quotedText is a JSON string of at most len(text) bytes, quotes included.
type quotedText struct {
	n    uint8
	text [46]byte
}

// MarshalGQL implements graphql.Marshaler.
func (q *quotedText) MarshalGQL(w io.Writer) { _, _ = w.Write(q.text[:q.n]) }

// quote closes the string body appended after q.text's opening quote, or
// reports that it does not fit (append went beyond the array).
func (q *quotedText) quote(body []byte) bool {
	if len(body) >= len(q.text) || &body[0] != &q.text[0] {
		return false
	}
	body = append(body, '"')
	q.n = uint8(len(body))
	return true
}

// quotedUUID is an id's canonical string (uuid.UUID.String), quoted.
func quotedUUID(id uuid.UUID) *quotedText {
	q := &quotedText{}
	b := q.text[:0]
	b = append(b, '"')
	b = hex.AppendEncode(b, id[0:4])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[4:6])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[6:8])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[8:10])
	b = append(b, '-')
	b = hex.AppendEncode(b, id[10:16])
	q.quote(b)
	return q
}

// quotedTime is t.Format(layout), quoted, or nil when that is too long
// for a quotedText (a year beyond 9999 in a long layout).
func quotedTime(t time.Time, layout string) *quotedText {
	q := &quotedText{}
	b := append(q.text[:0], '"')
	if !q.quote(t.AppendFormat(b, layout)) {
		return nil
	}
	return q
}

// quotedUpperASCII is s in upper case, quoted, or nil unless s is a short
// string of ASCII letters and digits (which strings.ToUpper maps byte for
// byte, and JSON writes unescaped).
func quotedUpperASCII(s string) *quotedText {
	q := &quotedText{}
	if len(s) == 0 || len(s)+2 > len(q.text) {
		return nil
	}
	b := append(q.text[:0], '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		case 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		default:
			return nil
		}
		b = append(b, c)
	}
	q.quote(b)
	return q
}
