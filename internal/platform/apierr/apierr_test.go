package apierr

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFieldsCollectsEveryProblemInOrder(t *testing.T) {
	var f Fields
	require.NoError(t, f.Err())
	f.Add("type", "is required")
	f.Add("profile.individual.email", "is invalid")
	f.Add("type", "must be individual or business")
	e := As(f.Err())
	require.NotNil(t, e)
	require.Equal(t, 422, e.Status)
	require.Equal(t, CodeValidation, e.Code)
	require.Equal(t, []string{"is required", "must be individual or business"}, e.Fields["type"])
	require.Equal(t, "Validation failed: type is required, must be individual or business; profile.individual.email is invalid", e.Message)
	require.Empty(t, e.Param, "param names one input only when exactly one is at fault")
	require.Equal(t, "email", As(FieldError("email", "is invalid")).Param)
}

func TestFromWrapsUnknownErrorsAsInternal(t *testing.T) {
	cause := errors.New("boom")
	e := From(fmt.Errorf("wrapped: %w", cause))
	require.Equal(t, 500, e.Status)
	require.ErrorIs(t, e, cause)
	require.NotContains(t, e.Message, "boom")
	nf := NotFound("account", "x")
	require.Same(t, nf, From(fmt.Errorf("ctx: %w", nf)))
}

// errOutage stands for a driver's connection failure; apierr knows no
// driver, the store registers the real classifier.
var errOutage = errors.New("dial tcp 127.0.0.1:1: connect: connection refused")

func TestRegisteredClassifierTurnsOutagesInto503(t *testing.T) {
	unregister := RegisterClassifier(func(err error) *Error {
		if errors.Is(err, errOutage) {
			return DatabaseUnavailable(1500*time.Millisecond, err)
		}
		return nil
	})
	defer unregister()

	for name, e := range map[string]*Error{
		"From":     From(fmt.Errorf("select account: %w", errOutage)),
		"Internal": Internal(fmt.Errorf("select account: %w", errOutage)),
	} {
		require.Equal(t, 503, e.Status, name)
		require.Equal(t, CodeDatabaseUnavailable, e.Code, name)
		require.Equal(t, map[string]string{"Retry-After": "2"}, e.Headers, "%s: whole seconds, rounded up", name)
		require.ErrorIs(t, e, errOutage, name)
		require.NotContains(t, e.Message, "refused", "%s: the cause is never shown", name)
	}
	require.Equal(t, 500, From(errors.New("boom")).Status, "other errors stay internal")
	nf := NotFound("account", "x")
	require.Same(t, nf, From(nf), "API errors pass through")

	unregister()
	require.Equal(t, 500, From(errOutage).Status, "an unregistered classifier is not consulted")
	require.Equal(t, CodeInternal, Internal(errOutage).Code)
}

func TestUnavailableRetryAfterIsAtLeastOneSecond(t *testing.T) {
	require.Equal(t, "1", Unavailable("x", "m", 0, nil).Headers["Retry-After"])
	require.Equal(t, "1", Unavailable("x", "m", time.Second, nil).Headers["Retry-After"])
	require.Equal(t, "30", Unavailable("x", "m", 30*time.Second, nil).Headers["Retry-After"])
	require.Equal(t, 503, Unavailable("x", "m", 0, nil).Status)
}
