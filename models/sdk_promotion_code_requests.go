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
// same instant, so a number is read as Unix seconds and carried into
// ExpiresAt as the string the spec takes.
type sdkPromotionCodeMembers struct {
	expiresProblem string // set when expires_at was a number that is no timestamp
}

// readSDKExpiresAt reads expires_at sent as a JSON string or number.
func (in *PromotionCodeInput) readSDKExpiresAt(raw json.RawMessage) error {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &in.ExpiresAt)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return &json.UnmarshalTypeError{Value: string(raw), Type: reflectString, Field: "expires_at"}
	}
	sec, err := n.Int64()
	switch {
	case err != nil:
		in.sdk.expiresProblem = "must be an ISO 8601 timestamp or whole Unix seconds"
	case !UnixSecondsInRange(sec):
		in.sdk.expiresProblem = ProblemUnixSeconds
	default:
		s := time.Unix(sec, 0).UTC().Format(time.RFC3339)
		in.ExpiresAt = &s
	}
	return nil
}

var reflectString = reflect.TypeOf("")

func (m sdkPromotionCodeMembers) check(f *apierr.Fields) {
	if m.expiresProblem != "" {
		f.Add("expires_at", m.expiresProblem)
	}
}
