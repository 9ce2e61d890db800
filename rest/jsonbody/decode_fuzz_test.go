package jsonbody_test

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

// Any body either decodes or is refused as a 400 in the envelope's terms;
// it never panics and never becomes another kind of error.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"type":"individual"}`, `{"type":1}`, `{"capabilities":"kyc"}`, `{"metadata":{"a":1}}`,
		`{`, `{} {}`, ``, `[]`, `"x"`, `{"profile":{"individual":{"name":[]}}}`} {
		f.Add([]byte(s))
	}
	f.Add([]byte("{\"type\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/v1/accounts", bytes.NewReader(body))
		var in models.CreateAccountInput
		err := jsonbody.Decode(r, &in)
		if err == nil {
			return
		}
		e := apierr.As(err)
		unreadable := e != nil && e.Status == 400 && (e.Code == apierr.CodeInvalidJSON || e.Code == apierr.CodeParameterInvalid)
		badText := e != nil && e.Status == 422 && e.Code == apierr.CodeValidation // invalid UTF-8 in a string
		if !unreadable && !badText {
			t.Fatalf("decode(%q) = %v", body, err)
		}
	})
}
