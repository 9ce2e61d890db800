package ids

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestNewIsVersion7AndTimeOrdered(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := New(t0)
	b := New(t0.Add(time.Millisecond))
	require.Equal(t, byte(7), byte(a.Version()))
	require.Less(t, a.String(), b.String())
	got, ok := Parse(a.String())
	require.True(t, ok)
	require.Equal(t, a, got)
}

func TestParseRejectsNonCanonical(t *testing.T) {
	for _, s := range []string{"", "abc", "urn:uuid:0190d1e0-0000-7000-8000-000000000000", "{0190d1e0-0000-7000-8000-000000000000}"} {
		_, ok := Parse(s)
		require.False(t, ok, s)
	}
}

func TestIDsWithinOneMillisecondAreMonotonic(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	prev := New(now)
	for range 10000 {
		next := New(now)
		require.Less(t, prev.String(), next.String())
		require.Equal(t, byte(7), byte(next.Version()))
		require.Equal(t, uuid.RFC4122, next.Variant())
		prev = next
	}
}

// Interleaved readings of different clocks (parallel requests, test clocks
// set back) still give strictly increasing ids.
func TestIDsStayMonotonicWhenTimeDoesNot(t *testing.T) {
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	prev := New(base)
	for i := range 1000 {
		now := base.Add(time.Duration(i%7-3) * time.Millisecond)
		next := New(now)
		require.Less(t, prev.String(), next.String())
		prev = next
	}
}

// Append writes what String writes, after what dst holds.
func TestAppendWritesTheCanonicalForm(t *testing.T) {
	for range 1000 {
		id := uuid.New()
		require.Equal(t, "id="+id.String(), string(Append([]byte("id="), id)))
	}
	require.Equal(t, uuid.Nil.String(), string(Append(nil, uuid.Nil)))
	require.Equal(t, uuid.Max.String(), string(Append(nil, uuid.Max)))
}
