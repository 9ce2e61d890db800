package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestManualMovesOnlyWhenTold(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 123456789, time.FixedZone("x", 3600))
	c := NewManual(start)
	require.Equal(t, start.UTC().Truncate(time.Microsecond), c.Now())
	require.Equal(t, c.Now(), c.Now())
	c.Advance(time.Hour)
	require.Equal(t, start.Add(time.Hour).UTC().Truncate(time.Microsecond), c.Now())
	c.Set(start)
	c.SetStep(time.Millisecond)
	a, b := c.Now(), c.Now()
	require.Equal(t, time.Millisecond, b.Sub(a), "a stepping clock gives ordered readings")
}

func TestRealIsUTCMicroseconds(t *testing.T) {
	now := Real{}.Now()
	require.Equal(t, time.UTC, now.Location())
	require.Zero(t, now.Nanosecond()%1000)
}
