// Package wire holds the representations every stored and rendered object
// shares: points in time as the API writes them (Unix seconds, or ISO 8601
// where the spec says so) and the tenant columns of every tenant row. It is
// platform: it knows no resource.
package wire

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Tenant carries the columns every tenant row has. Its merchant id never
// leaves the server.
type Tenant struct {
	MerchantID uuid.UUID `bun:"merchant_id,pk,type:uuid" json:"-"`
	Livemode   bool      `bun:"livemode" json:"livemode"`
}

// SetScope stamps the tenant columns (store.TenantRow).
func (t *Tenant) SetScope(s store.Scope) {
	t.MerchantID = s.MerchantID
	t.Livemode = s.Livemode
}

// Timestamp is a point in time that travels as integer Unix seconds, the
// API's default timestamp form (spec doc 1 §1.4).
type Timestamp struct{ time.Time }

// At wraps t.
func At(t time.Time) Timestamp { return Timestamp{t} }

// MarshalJSON writes Unix seconds, or null for the zero time.
func (t Timestamp) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil), nil }

// AppendJSON appends what MarshalJSON writes.
func (t Timestamp) AppendJSON(b []byte) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, t.Unix(), 10)
}

// UnmarshalJSON reads Unix seconds.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = Timestamp{}
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	t.Time = time.Unix(n, 0).UTC()
	return nil
}

// Scan reads a timestamptz: as the driver gives one, or as PostgreSQL
// writes one in JSON (RFC 3339 with up to six fractional digits, in the
// session's time zone), which is how a row read inside its parent's
// statement carries it.
func (t *Timestamp) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*t = Timestamp{}
	case time.Time:
		t.Time = v.UTC()
	case string:
		return t.ScanText(v)
	case []byte:
		return t.ScanText(string(v))
	default:
		return fmt.Errorf("timestamp: cannot scan %T", src)
	}
	return nil
}

// ScanText reads a timestamptz as PostgreSQL writes one in JSON, what Scan
// does with that text as a string. It lets a reader of a row embedded in
// its parent's statement hand the text over without boxing it in an
// interface, an allocation per timestamp of every child.
func (t *Timestamp) ScanText(s string) error {
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("timestamp: %w", err)
	}
	t.Time = v.UTC()
	return nil
}

// Value writes a timestamptz (NULL for the zero time).
func (t Timestamp) Value() (driver.Value, error) {
	if t.IsZero() {
		return nil, nil
	}
	return t.Time, nil
}

// ISOTime is a point in time that travels as an ISO 8601 string, for the
// resources whose fields the spec states so (capabilities, terms of service).
type ISOTime struct{ time.Time }

// MarshalJSON writes RFC 3339 in UTC with second precision, or null.
func (t ISOTime) MarshalJSON() ([]byte, error) {
	return t.AppendJSON(make([]byte, 0, len(time.RFC3339)+2)), nil
}

// AppendJSON appends what MarshalJSON writes.
func (t ISOTime) AppendJSON(b []byte) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// UnmarshalJSON reads RFC 3339.
func (t *ISOTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*t = ISOTime{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = v.UTC()
	return nil
}

// Scan reads a timestamptz, as Timestamp.Scan does.
func (t *ISOTime) Scan(src any) error { return (*Timestamp)(t).Scan(src) }

// ScanText reads a timestamptz as PostgreSQL writes one in JSON, as
// Timestamp.ScanText does.
func (t *ISOTime) ScanText(s string) error { return (*Timestamp)(t).ScanText(s) }

// Value writes a timestamptz.
func (t ISOTime) Value() (driver.Value, error) { return Timestamp(t).Value() }
