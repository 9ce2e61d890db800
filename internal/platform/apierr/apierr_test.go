package apierr

import (
	"errors"
	"fmt"
	"testing"

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
