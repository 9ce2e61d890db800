package jsonbody_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

type decodedAddress struct {
	City *string `json:"city"`
}

type decodedPerson struct {
	decodedAddress
	FirstName *string `json:"first_name"`
}

type decodedOwner struct {
	decodedPerson
	Roles   []string                 `json:"roles"`
	Named   decodedAddress           `json:"named"`
	Nested  struct{ decodedPerson }  `json:"nested"`
	ByKey   map[string]decodedPerson `json:"by_key"`
	Tagged  decodedAddress           `json:"tagged_address"`
	Percent *float64                 `json:"percent"`
}

// A member of the wrong JSON type is named as the client sent it, also
// when the Go type declares it in an embedded struct (or an embedded
// struct's embedded struct): encoding/json would name it by its Go path.
// The request is refused before any operation runs, so nothing is stored.
func TestDecodeNamesATypeErrorByItsJSONPath(t *testing.T) {
	for body, param := range map[string]string{
		`{"first_name": 1}`:                     "first_name",
		`{"city": true}`:                        "city",
		`{"percent": "x"}`:                      "percent",
		`{"roles": [1]}`:                        "roles",
		`{"named": {"city": 2}}`:                "named.city",
		`{"nested": {"city": 2}}`:               "nested.city",
		`{"nested": {"first_name": []}}`:        "nested.first_name",
		`{"by_key": {"a": {"city": {}}}}`:       "by_key.city", // encoding/json names no map key
		`{"tagged_address": {"city": 1}}`:       "tagged_address.city",
		`{"first_name": "ok", "city": [false]}`: "city",
	} {
		r := httptest.NewRequest("POST", "/v1/x", strings.NewReader(body))
		var in decodedOwner
		e := apierr.As(jsonbody.Decode(r, &in))
		if e == nil || e.Status != 400 || e.Code != apierr.CodeParameterInvalid || e.Param != param {
			t.Errorf("decode(%s) = %+v, want 400 %s param %q", body, e, apierr.CodeParameterInvalid, param)
			continue
		}
		if !strings.HasPrefix(e.Message, "Invalid type for parameter "+param+": expected ") {
			t.Errorf("decode(%s) message = %q", body, e.Message)
		}
	}
}
