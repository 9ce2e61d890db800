package jsonbody_test

import (
	"bytes"
	"net/http/httptest"
	"testing"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

// Any body either decodes into text that is valid UTF-8, or is refused as
// 400 invalid_json / parameter_invalid or 422 validation_errors; decode
// never panics and never stores U+FFFD in place of what the client sent.
func FuzzDecodeText(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`, `{"a":["\udc00"]}`,
		`{"a":"\ud83d\ude00"}`, `{"a":"\\ud800"}`, "{\"\xff\":1}", "\"\xc3\"", `{"a":{"b":[{"c":"\uD800\u0041"}]}}`,
		"{\xff}", `{"a":"\u00"}`, "\"\x84\"]", `{"a":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/v1/accounts", bytes.NewReader(body))
		var v any
		err := jsonbody.Decode(r, &v)
		if err == nil {
			if !utf8.Valid(body) {
				t.Fatalf("decode(%q) accepted invalid UTF-8", body)
			}
			if s := jsonText(v); bytes.ContainsRune([]byte(s), utf8.RuneError) &&
				!bytes.ContainsRune(body, utf8.RuneError) && !bytes.Contains(bytes.ToLower(body), []byte(`\ufffd`)) {
				t.Fatalf("decode(%q) made U+FFFD", body)
			}
			return
		}
		e := apierr.As(err)
		switch {
		case e == nil:
			t.Fatalf("decode(%q) = %v", body, err)
		case e.Status == 400 && (e.Code == apierr.CodeInvalidJSON || e.Code == apierr.CodeParameterInvalid):
		case e.Status == 422 && e.Code == apierr.CodeValidation:
		default:
			t.Fatalf("decode(%q) = %v", body, err)
		}
	})
}

// jsonText concatenates every string (keys too) in a decoded value.
func jsonText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b bytes.Buffer
		for _, x := range v {
			b.WriteString(jsonText(x))
		}
		return b.String()
	case map[string]any:
		var b bytes.Buffer
		for k, x := range v {
			b.WriteString(k)
			b.WriteString(jsonText(x))
		}
		return b.String()
	}
	return ""
}
