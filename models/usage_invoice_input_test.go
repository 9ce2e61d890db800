package models

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// A hostile events list (a million separators, or names past the bound)
// is one problem, not one per name.
func TestUsageInvoiceEventsListIsBounded(t *testing.T) {
	for _, events := range []string{strings.Repeat(",", 1<<20), strings.Repeat("a,", 60), "ok,bad name,worse name"} {
		in := &CreateUsageInvoiceInput{Events: &events}
		err := in.Validate()
		e := apierr.As(err)
		require.NotNil(t, e)
		problems := e.Fields["events"]
		require.Len(t, problems, 1, "%.40q: %v", events, problems)
	}
}

// A usage number is parsed only when its syntax is a bounded decimal: a
// huge exponent is refused before math/big computes anything.
func TestUsageNumberSyntaxIsBounded(t *testing.T) {
	for _, bad := range []string{"1e999999999", "0x10", "1/3", "", "1e", strings.Repeat("9", 41), "NaN", "Inf"} {
		n := UsageNumber(bad)
		var f apierr.Fields
		checkUsageNumber(&f, "value", &n, true)
		require.True(t, f.Has("value"), "%q", bad)
		require.Equal(t, "0", UsageNumber(bad).Rat().FloatString(0))
	}
	n := UsageNumber("2.5e3")
	var f apierr.Fields
	checkUsageNumber(&f, "value", &n, true)
	require.False(t, f.Has("value"))
	require.Equal(t, UsageNumber("2500"), n)
}
