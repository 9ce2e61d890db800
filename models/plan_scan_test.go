package models

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A subscription's plan is scanned as every JSON column is, from bytes
// or text, replacing what the plan held; its column always holds an
// object, so NULL is an error rather than a plan of zero members.
func TestAPlanScansAsEveryJSONColumnAndRefusesNull(t *testing.T) {
	p := &Plan{Amount: 7, Active: true}
	require.NoError(t, p.Scan([]byte(`{"interval":"month","interval_count":1,"amount":1200,"currency":"usd"}`)))
	require.Equal(t, Plan{Interval: "month", IntervalCount: 1, Amount: 1200, Currency: "usd"}, *p, "nothing merged from before")
	require.NoError(t, p.Scan(`{"amount":5}`))
	require.EqualValues(t, 5, p.Amount)
	require.Error(t, p.Scan(nil))
	require.Error(t, p.Scan(42))
}
