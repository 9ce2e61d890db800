package funding

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestValid(t *testing.T) {
	for _, c := range []Cadence{Daily, Weekly, Monthly} {
		require.True(t, c.Valid())
	}
	require.False(t, Cadence("hourly").Valid())
	require.False(t, Cadence("").Valid())
}

func TestNextAfter(t *testing.T) {
	for _, c := range []struct {
		name    string
		anchor  string
		cadence Cadence
		after   string
		want    string
	}{
		{"daily, on time", "2026-01-01T09:00:00Z", Daily, "2026-01-01T09:00:00Z", "2026-01-02T09:00:00Z"},
		{"daily, a little late", "2026-01-01T09:00:00Z", Daily, "2026-01-01T09:00:05Z", "2026-01-02T09:00:00Z"},
		{"daily, missed runs are not made up", "2026-01-01T09:00:00Z", Daily, "2026-01-05T10:00:00Z", "2026-01-06T09:00:00Z"},
		{"before the anchor", "2026-01-10T09:00:00Z", Daily, "2026-01-01T00:00:00Z", "2026-01-10T09:00:00Z"},
		{"weekly", "2026-01-01T09:00:00Z", Weekly, "2026-01-01T09:00:00Z", "2026-01-08T09:00:00Z"},
		{"weekly, three weeks late", "2026-01-01T09:00:00Z", Weekly, "2026-01-22T09:00:00Z", "2026-01-29T09:00:00Z"},
		{"monthly", "2026-01-15T09:00:00Z", Monthly, "2026-01-15T09:00:00Z", "2026-02-15T09:00:00Z"},
		{"monthly from the 31st clamps to February", "2026-01-31T09:00:00Z", Monthly, "2026-01-31T09:00:00Z", "2026-02-28T09:00:00Z"},
		{"monthly from the 31st comes back to the 31st", "2026-01-31T09:00:00Z", Monthly, "2026-02-28T09:00:00Z", "2026-03-31T09:00:00Z"},
		{"monthly, leap February", "2028-01-30T00:00:00Z", Monthly, "2028-01-30T00:00:00Z", "2028-02-29T00:00:00Z"},
		{"monthly across a year", "2026-11-30T12:00:00Z", Monthly, "2026-12-30T12:00:00Z", "2027-01-30T12:00:00Z"},
		{"monthly, years late", "2020-05-10T00:00:00Z", Monthly, "2026-03-11T00:00:00Z", "2026-04-10T00:00:00Z"},
		{"monthly, just before a run", "2026-01-10T00:00:00Z", Monthly, "2026-03-09T23:59:59Z", "2026-03-10T00:00:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, at(c.want), NextAfter(at(c.anchor), c.cadence, at(c.after)).UTC())
		})
	}
}

func TestNextAfterIsAlwaysLaterAndOnTheSeries(t *testing.T) {
	anchor := at("2026-01-31T06:30:00Z")
	for _, c := range []Cadence{Daily, Weekly, Monthly} {
		t0 := anchor
		for i := 0; i < 400; i++ {
			n := NextAfter(anchor, c, t0)
			require.True(t, n.After(t0), "%s: %s after %s", c, n, t0)
			require.Equal(t, Run(anchor, c, i+1), n, "%s run %d", c, i+1)
			t0 = n
		}
	}
}
