package jsonbody

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// checkText refuses a JSON body holding a string that is not valid UTF-8:
// raw invalid bytes, or an escaped surrogate half (\ud800) that no UTF-8
// text can hold. encoding/json would silently turn either into U+FFFD;
// docs/decisions.md promises 422 instead. Each string at fault is named by
// its dotted path (an array's elements by the array's path; a key by its
// object's path), all of them at once. A body that is not one well-formed
// JSON value (invalid bytes outside any string among others) is left to
// decode, which refuses it as 400 invalid_json.
func checkText(body []byte) error {
	if utf8.Valid(body) && !hasSurrogateEscape(body) || !json.Valid(body) {
		return nil // valid text, or unreadable JSON that decode refuses (400)
	}
	type frame struct {
		object  bool
		wantKey bool
		key     string
	}
	var (
		stack []frame
		f     apierr.Fields
		whole bool // a problem outside any object member
	)
	path := func(withKey bool) string {
		var parts []string
		for i, fr := range stack {
			if fr.object && (withKey || i < len(stack)-1) && fr.key != "" {
				parts = append(parts, fr.key)
			}
		}
		return strings.Join(parts, ".")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			break // the end (the body is well-formed)
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if n := len(stack); n > 0 && stack[n-1].object {
					stack[n-1].wantKey = true
				}
				stack = append(stack, frame{object: d == '{', wantKey: true})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		}
		top := len(stack) - 1
		isKey := top >= 0 && stack[top].object && stack[top].wantKey
		if top >= 0 && stack[top].object {
			stack[top].wantKey = !stack[top].wantKey
		}
		s, isString := tok.(string)
		if isKey {
			stack[top].key = s
		}
		if !isString || validLiteral(body[start:dec.InputOffset()]) {
			continue
		}
		p, problem := path(!isKey), "must be valid UTF-8"
		if isKey {
			problem = "keys must be valid UTF-8"
		}
		if p == "" {
			whole = true
		} else if !f.Has(p) {
			f.Add(p, problem)
		}
	}
	if f.Empty() {
		if !whole {
			return nil
		}
		return &apierr.Error{Status: http.StatusUnprocessableEntity, Code: apierr.CodeValidation,
			Message: "The request body must be valid UTF-8 text"}
	}
	return f.Err()
}

// validLiteral reports whether a JSON string literal (with whatever
// separators precede it) is valid UTF-8 and escapes no lone surrogate.
func validLiteral(raw []byte) bool {
	if !utf8.Valid(raw) {
		return false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r, ok := hex4(raw, i+2)
		if !ok {
			return true // malformed: the decoder reports it
		}
		i += 5
		switch {
		case r >= 0xdc00 && r <= 0xdfff:
			return false // a low half alone
		case r >= 0xd800 && r <= 0xdbff:
			if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				if lo, ok := hex4(raw, i+3); ok && lo >= 0xdc00 && lo <= 0xdfff {
					i += 6
					continue
				}
			}
			return false // a high half without its low half
		}
	}
	return true
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// hasSurrogateEscape reports whether body may escape a surrogate half
// (\uD800-\uDFFF); a false positive only costs checkText a closer look.
func hasSurrogateEscape(body []byte) bool {
	for {
		i := bytes.Index(body, []byte(`\u`))
		if i < 0 || i+3 >= len(body) {
			return false
		}
		if c, n := body[i+2], body[i+3]; (c == 'd' || c == 'D') &&
			(n >= '8' && n <= '9' || n >= 'a' && n <= 'f' || n >= 'A' && n <= 'F') {
			return true
		}
		body = body[i+2:]
	}
}
