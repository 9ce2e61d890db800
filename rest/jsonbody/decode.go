// Package jsonbody reads the REST API's JSON request bodies and renders
// its JSON responses: what the handlers of package rest share, kept apart
// from them so that its tests need neither the app nor a database.
package jsonbody

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// Decode reads a request's JSON body into v. An empty body decodes as {}. An
// unreadable body (or one over httpx.MaxBodyBytes) is 400 invalid_json; a
// string that is not valid UTF-8 is 422 validation_errors naming it
// (checkText); a member of the wrong JSON type is 400 parameter_invalid
// naming it. Unknown members are ignored, as the real service ignores them.
func Decode(r *http.Request, v any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, httpx.MaxBodyBytes+1))
	if err != nil {
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body could not be read", "")
	}
	if len(body) > httpx.MaxBodyBytes {
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body is larger than 1 MiB", "")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := checkText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			param := typeErrorParam(reflect.TypeOf(v), te.Field)
			if param == "" {
				return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body must be a JSON object", "")
			}
			return apierr.BadRequest(apierr.CodeParameterInvalid,
				"Invalid type for parameter "+param+": expected "+jsonTypeName(te.Type.String()), param)
		}
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body is not valid JSON: "+err.Error(), "")
	}
	if _, err := dec.Token(); err != io.EOF { // dec.More misses a stray ] or }
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body has data after the JSON object", "")
	}
	return nil
}

func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "string"):
		return "string"
	case strings.Contains(goType, "bool"):
		return "boolean"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "number"
	case strings.HasPrefix(strings.TrimLeft(goType, "*"), "[]"):
		return "array"
	default:
		return "object"
	}
}
