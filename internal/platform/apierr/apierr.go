// Package apierr holds the typed errors the operation layer returns. Each
// transport renders them through exactly one mapping (rest: the JSON error
// envelope; graph: the error presenter), so a rule fails the same way whether
// it is reached over REST or GraphQL.
package apierr

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is an API error with everything the envelope can carry.
type Error struct {
	Status  int                 // HTTP status
	Code    string              // stable machine code, snake_case
	Message string              // human sentence
	Param   string              // the input at fault, when one is
	Data    map[string]any      // error_details.data
	Fields  map[string][]string // error_details.errors (validation)
	Details map[string]any      // details (spec-named, e.g. open run id)
	Headers map[string]string   // extra response headers (Retry-After)
	Cause   error               // internal cause, logged, never echoed
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

// Unwrap exposes the cause to errors.Is/As.
func (e *Error) Unwrap() error { return e.Cause }

// As returns the *Error inside err, or nil when err is not an API error.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Codes used across the API (API-DECISIONS §2).
const (
	CodeInvalidJSON           = "invalid_json"
	CodeParameterInvalid      = "parameter_invalid"
	CodeAuthenticationNeeded  = "authentication_required"
	CodeInvalidAPIKey         = "invalid_api_key"
	CodeInvalidClientSecret   = "invalid_client_secret"
	CodeForbidden             = "forbidden"
	CodeResourceMissing       = "resource_missing"
	CodeIdempotencyKeyInUse   = "idempotency_key_in_use"
	CodeIdempotencyError      = "idempotency_error"
	CodeValidation            = "validation_errors"
	CodeInvalidState          = "invalid_state"
	CodeRateLimited           = "rate_limited"
	CodeProviderNotConfigured = "provider_not_configured"
	CodeInternal              = "internal_error"
)

// NotFound is the answer for an unknown id and for another tenant's object
// alike, so that existence never leaks across merchants or modes.
func NotFound(resource, id string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeResourceMissing,
		Message: fmt.Sprintf("No such %s: '%s'", resource, id), Param: "id"}
}

// Forbidden is for a valid credential calling an operation its kind may not.
func Forbidden(msg string) *Error {
	if msg == "" {
		msg = "This credential may not perform this operation"
	}
	return &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: msg}
}

// Unauthorized is for a missing, unknown or expired credential.
func Unauthorized(code, msg string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: code, Message: msg}
}

// BadRequest is for input the server cannot read (400).
func BadRequest(code, msg, param string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: code, Message: msg, Param: param}
}

// Rule is a named business rule that refused the request (422 by default).
func Rule(code, msg, param string, data map[string]any) *Error {
	return &Error{Status: http.StatusUnprocessableEntity, Code: code, Message: msg, Param: param, Data: data}
}

// InvalidState is for a request the object's current state forbids.
func InvalidState(msg string) *Error {
	return &Error{Status: http.StatusUnprocessableEntity, Code: CodeInvalidState, Message: msg}
}

// Conflict is a 409 with a spec-named code.
func Conflict(code, msg string, details map[string]any) *Error {
	return &Error{Status: http.StatusConflict, Code: code, Message: msg, Details: details}
}

// Internal wraps an unexpected failure; its cause is logged, never shown.
func Internal(cause error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal,
		Message: "An internal error occurred; quote the request_id when reporting it", Cause: cause}
}

// From turns any error into an *Error: API errors pass through, anything
// else becomes an internal error carrying it as the cause.
func From(err error) *Error {
	if e := As(err); e != nil {
		return e
	}
	return Internal(err)
}
