package models

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// sdkPromotionCodeMembers are what the real service's SDK sends on a
// promotion code (CreatePromotionCodeParams, UpdatePromotionCodeParams)
// that the spec's members do not take as such. Its expires_at is a Unix
// timestamp (a JSON number) where the spec's is an ISO 8601 string: the
// same instant, so the member is read here, in either JSON type, and
// carried into ExpiresAt as the string the spec takes.
type sdkPromotionCodeMembers struct {
	ExpiresAt isoOrUnixSeconds `json:"expires_at" into:"ExpiresAt"`
}

// isoOrUnixSeconds is a time sent as the spec's ISO 8601 string or as the
// SDK's whole Unix seconds.
type isoOrUnixSeconds struct {
	text    *string // the ISO 8601 string, as sent or written from the seconds
	problem string  // set when a number was sent that is no timestamp
}

// UnmarshalJSON reads a JSON string or number (null: none); any other JSON
// type is a type error, named by encoding/json after its member.
func (t *isoOrUnixSeconds) UnmarshalJSON(raw []byte) error {
	*t = isoOrUnixSeconds{}
	if string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &t.text)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return &json.UnmarshalTypeError{Value: string(raw), Type: reflectString}
	}
	sec, err := n.Int64()
	switch {
	case err != nil:
		t.problem = "must be an ISO 8601 timestamp or whole Unix seconds"
	case !UnixSecondsInRange(sec):
		t.problem = ProblemUnixSeconds
	default:
		s := time.Unix(sec, 0).UTC().Format(time.RFC3339)
		t.text = &s
	}
	return nil
}

// Value is the ISO 8601 string read (nil: none, or a problem).
func (t isoOrUnixSeconds) Value() *string { return t.text }

var reflectString = reflect.TypeOf("")

func (m sdkPromotionCodeMembers) check(f *apierr.Fields) {
	if m.ExpiresAt.problem != "" {
		f.Add("expires_at", m.ExpiresAt.problem)
	}
}
