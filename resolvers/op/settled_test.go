package op_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A check refuses before the transaction only when every state the
// transaction may find gives the same problems.
func TestSettledRefusesOnlyWhatNoStateChanges(t *testing.T) {
	t.Parallel()
	email := apierr.FieldError("email", "is not a valid e-mail address")
	both := apierr.Validation(map[string][]string{"email": {"is not a valid e-mail address"},
		"dob": {"must not be in the future"}}, []string{"email", "dob"})
	cases := []struct {
		name    string
		answers []error
		want    error
	}{
		{"no answer", nil, nil},
		{"valid in every state", []error{nil, nil}, nil},
		{"the same problems in every state", []error{email, apierr.FieldError("email", "is not a valid e-mail address")}, email},
		{"problems that depend on the state", []error{both, email}, nil},
		{"valid in one state only", []error{email, nil}, nil},
		{"not a validation", []error{errors.New("boom"), errors.New("boom")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, op.Settled(c.answers...))
		})
	}
}

// A date against the time is left to the write, which knows its time;
// a problem no time changes is refused before it.
func TestAtAnyTimeLeavesTheTimeToTheWrite(t *testing.T) {
	t.Parallel()
	notFuture := func(date time.Time, malformed bool) func(time.Time) error {
		return func(now time.Time) error {
			var f apierr.Fields
			if malformed {
				f.Add("name", "is required")
			}
			if date.After(now) {
				f.Add("dob", "must not be in the future")
			}
			return f.Err()
		}
	}
	dob := time.Date(1990, time.May, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, op.AtAnyTime(notFuture(dob, false))())
	require.NoError(t, op.AtAnyTime(notFuture(dob, true))(), "the dob's problem depends on the time")
	require.Equal(t, apierr.FieldError("name", "is required"), op.AtAnyTime(notFuture(time.Time{}, true))())
}

// Only an update that sets a key can take stored metadata over its size.
func TestSetsMetadataOnlyWhenAKeyIsSet(t *testing.T) {
	t.Parallel()
	value, empty := "gold", ""
	require.False(t, op.SetsMetadata(nil))
	require.False(t, op.SetsMetadata(models.MetadataInput{"tier": nil, "plan": &empty}))
	require.True(t, op.SetsMetadata(models.MetadataInput{"tier": nil, "plan": &value}))
}
