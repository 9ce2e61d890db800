// Package apierr holds the typed errors the operation layer returns. Each
// transport renders them through exactly one mapping (rest: the JSON error
// envelope; graph: the error presenter), so a rule fails the same way whether
// it is reached over REST or GraphQL.
package apierr

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"
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
	CodeDatabaseUnavailable   = "database_unavailable"
	CodeLockConflict          = "lock_conflict"
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
// A cause a registered classifier recognises (a database outage) becomes
// that classifier's error instead (503 database_unavailable), so every
// path that gives up on an unexpected error (From, the GraphQL presenter,
// authentication) answers an outage the same way.
func Internal(cause error) *Error {
	if e := classify(cause); e != nil {
		return e
	}
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal,
		Message: "An internal error occurred; quote the request_id when reporting it", Cause: cause}
}

// Unavailable is a 503: the server cannot answer now but expects to soon.
// retryAfter becomes the Retry-After header, in whole seconds (at least 1).
func Unavailable(code, msg string, retryAfter time.Duration, cause error) *Error {
	secs := int64((retryAfter + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return &Error{Status: http.StatusServiceUnavailable, Code: code, Message: msg, Cause: cause,
		Headers: map[string]string{"Retry-After": strconv.FormatInt(secs, 10)}}
}

// DatabaseUnavailable is the answer while the database cannot be reached
// (down, restarting, refusing connections): 503 database_unavailable with
// Retry-After. Its cause is logged, never shown.
func DatabaseUnavailable(retryAfter time.Duration, cause error) *Error {
	return Unavailable(CodeDatabaseUnavailable,
		"The service is temporarily unavailable; retry after the number of seconds in Retry-After",
		retryAfter, cause)
}

// LockConflict is the answer when the database gave up on the request's
// transaction because of another one (a deadlock it broke, a lock it could
// not take): nothing was written, and the same request can be sent again.
// The writes take their locks in one order (docs/billing.md, "Lock
// order"), so this is a backstop, never the answer to an ordinary race.
func LockConflict(cause error) *Error {
	return &Error{Status: http.StatusConflict, Code: CodeLockConflict,
		Message: "Another request was changing the same objects; nothing was changed, retry the request",
		Headers: map[string]string{"Retry-After": "1"}, Cause: cause}
}

// From turns any error into an *Error: API errors pass through, anything
// else becomes an internal error carrying it as the cause (or what a
// registered classifier makes of it, see Internal).
func From(err error) *Error {
	if e := As(err); e != nil {
		return e
	}
	return Internal(err)
}

// A Classifier recognises a failure of the infrastructure below the API
// (a database outage) and returns the API error it means, or nil. apierr
// knows no driver; the package owning the connection registers one
// (internal/platform/store registers the database's).
type Classifier func(error) *Error

var (
	classifiersMu sync.RWMutex
	classifiers   []*Classifier
)

// RegisterClassifier adds c to the classifiers Internal (and so From)
// consult, in registration order; unregister removes it again (tests).
func RegisterClassifier(c Classifier) (unregister func()) {
	p := &c
	classifiersMu.Lock()
	classifiers = append(classifiers, p)
	classifiersMu.Unlock()
	return func() {
		classifiersMu.Lock()
		defer classifiersMu.Unlock()
		for i, q := range classifiers {
			if q == p {
				classifiers = append(classifiers[:i:i], classifiers[i+1:]...)
				return
			}
		}
	}
}

func classify(err error) *Error {
	if err == nil {
		return nil
	}
	classifiersMu.RLock()
	defer classifiersMu.RUnlock()
	for _, c := range classifiers {
		if e := (*c)(err); e != nil {
			return e
		}
	}
	return nil
}

// Logged reports whether a transport logs e with its cause, and at which
// level: an internal error is an error; a 503 is a deliberate refusal (the
// server is saturated, the database is down) and a lock conflict a race
// the lock order should have prevented, both logged as warnings; anything
// else is the client's and is not logged beyond the request line.
func (e *Error) Logged() (slog.Level, bool) {
	switch {
	case e.Status == http.StatusServiceUnavailable, e.Code == CodeLockConflict:
		return slog.LevelWarn, true
	case e.Status >= 500:
		return slog.LevelError, true
	}
	return 0, false
}
