package calendar

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func mustNew(t testing.TB, anchor time.Time, every Interval) Calendar {
	t.Helper()
	c, err := New(anchor, every)
	require.NoError(t, err)
	return c
}

var (
	monthly   = Interval{Month, 1}
	quarterly = Interval{Month, 3}
	yearly    = Interval{Year, 1}
)

func TestOfRecurringCoversEveryProductInterval(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Interval{
		"daily":          {Day, 1},
		"weekly":         {Week, 1},
		"monthly":        {Month, 1},
		"yearly":         {Year, 1},
		"every_3_months": {Month, 3},
		"every_6_months": {Month, 6},
	} {
		got, err := OfRecurring(name)
		require.NoError(t, err, name)
		require.Equal(t, want, got, name)
		require.NoError(t, got.Validate())
	}
	_, err := OfRecurring("hourly")
	require.ErrorIs(t, err, ErrInvalidInterval)
}

func TestNewRefusesAnInvalidInterval(t *testing.T) {
	t.Parallel()
	anchor := at("2026-01-31T00:00:00Z")
	for _, iv := range []Interval{{}, {Month, 0}, {Month, -1}, {Year, MaxCount + 1}, {"fortnight", 1}} {
		_, err := New(anchor, iv)
		require.ErrorIs(t, err, ErrInvalidInterval, iv.String())
	}
	require.Equal(t, "1 month", monthly.String())
	require.Equal(t, "3 months", quarterly.String())
}

// The worked example of docs/billing.md.
func TestAnchorOn31JanuaryClampsAndComesBack(t *testing.T) {
	t.Parallel()
	c := mustNew(t, at("2026-01-31T09:30:00Z"), monthly)
	var ends []time.Time
	for n := range 6 {
		ends = append(ends, c.Period(n).End)
	}
	require.Equal(t, []time.Time{
		at("2026-02-28T09:30:00Z"),
		at("2026-03-31T09:30:00Z"),
		at("2026-04-30T09:30:00Z"),
		at("2026-05-31T09:30:00Z"),
		at("2026-06-30T09:30:00Z"),
		at("2026-07-31T09:30:00Z"),
	}, ends)
	// Chaining AddDate from the anchor would have given 3 March.
	require.Equal(t, at("2026-03-03T09:30:00Z"), c.Anchor().AddDate(0, 1, 0))

	leap := mustNew(t, at("2028-01-31T09:30:00Z"), monthly)
	require.Equal(t, at("2028-02-29T09:30:00Z"), leap.Boundary(1))
	require.Equal(t, at("2028-03-31T09:30:00Z"), leap.Boundary(2))
}

// lastDay is the length of a month by the Gregorian rule, written out
// independently of the time package.
func lastDay(y int, m time.Month) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// shortest and longest are the bounds, in days, of a period of 1, 3, 6 and
// 12 months, clamps included (a clamped start on 28 February to an
// unclamped 31 March is a 31-day month).
var (
	shortest = map[int]int64{1: 28, 3: 89, 6: 181, 12: 365}
	longest  = map[int]int64{1: 31, 3: 92, 6: 184, 12: 366}
)

// checkCalendarSeries walks periods 0..count-1 of a month- or year-based
// calendar against a reference that steps month by month, and asserts that
// the periods tile time: each starts where the previous ended, each lasts
// between the shortest and longest the interval allows, every boundary
// keeps the anchor's day (clamped) and time of day, and the boundary
// instant belongs to the period it starts.
func checkCalendarSeries(t *testing.T, c Calendar, count int) {
	t.Helper()
	a := c.Anchor()
	step := c.Interval().months()
	y, m := a.Year(), a.Month()
	var prev Period
	for n := range count {
		p := c.Period(n)
		want := time.Date(y, m, min(a.Day(), lastDay(y, m)), a.Hour(), a.Minute(), a.Second(), a.Nanosecond(), time.UTC)
		require.Equal(t, want, p.Start, "anchor %s, period %d", a, n)
		if n > 0 {
			require.Equal(t, prev.End, p.Start, "anchor %s: gap or overlap before period %d", a, n)
		}
		require.True(t, p.Start.Before(p.End))
		days := p.Seconds() / 86_400
		require.Zero(t, p.Seconds()%86_400)
		require.GreaterOrEqual(t, days, shortest[step], "anchor %s, period %d too short", a, n)
		require.LessOrEqual(t, days, longest[step], "anchor %s, period %d too long", a, n)
		require.Equal(t, n, c.PeriodAt(p.Start).Index)
		require.Equal(t, n-1, c.PeriodAt(p.Start.Add(-time.Nanosecond)).Index)
		require.Equal(t, n, c.PeriodAt(p.End.Add(-time.Nanosecond)).Index)
		prev = p
		for range step {
			if m++; m > time.December {
				m, y = time.January, y+1
			}
		}
	}
}

// checkBilledOnce drives a clock from the anchor to the end of period
// count−1 with irregular steps, the way the renewal job does: whenever the
// clock reaches the current period's end, the next period is billed. Every
// period must be billed exactly once, in order, and the periods billed in
// one step must be the ones PeriodsBetween counts.
func checkBilledOnce(t *testing.T, c Calendar, count int, rng *rand.Rand) {
	t.Helper()
	last := c.Boundary(count)
	billed := make([]int, count+1)
	current := c.PeriodAt(c.Anchor())
	billed[current.Index]++
	now := c.Anchor()
	for now.Before(last) {
		next := now.Add(time.Duration(rng.Int64N(int64(45*24*time.Hour))) + time.Nanosecond)
		if next.After(last) {
			next = last
		}
		rolled := 0
		for !current.End.After(next) {
			p := c.PeriodAt(current.End)
			require.Equal(t, current.Index+1, p.Index)
			require.Equal(t, current.End, p.Start)
			current = p
			billed[p.Index]++
			rolled++
		}
		require.Equal(t, rolled, c.PeriodsBetween(now, next), "from %s to %s", now, next)
		require.True(t, c.PeriodAt(next).Contains(next))
		require.Equal(t, current, c.PeriodAt(next))
		now = next
	}
	for n, times := range billed {
		require.Equal(t, 1, times, "anchor %s: period %d billed %d times", c.Anchor(), n, times)
	}
}

// Every day of 2027 as an anchor (so every day of the month 1 to 31, in
// every month), monthly over 48 months, through February 2028.
func TestMonthlyAnchorOnEveryDayOver48Months(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2027, 48))
	for a := at("2027-01-01T13:45:07.123456789Z"); a.Year() == 2027; a = a.AddDate(0, 0, 1) {
		c := mustNew(t, a, monthly)
		checkCalendarSeries(t, c, 48)
		checkBilledOnce(t, c, 48, rng)
		require.True(t, c.Boundary(48).After(at("2028-03-01T00:00:00Z")))
	}
}

func TestYearlyOn29February(t *testing.T) {
	t.Parallel()
	c := mustNew(t, at("2028-02-29T12:00:00Z"), yearly)
	checkCalendarSeries(t, c, 80)
	checkBilledOnce(t, c, 12, rand.New(rand.NewPCG(2028, 2)))
	for n, want := range map[int]string{
		1:  "2029-02-28T12:00:00Z",
		3:  "2031-02-28T12:00:00Z",
		4:  "2032-02-29T12:00:00Z",
		72: "2100-02-28T12:00:00Z", // not a leap year
		76: "2104-02-29T12:00:00Z",
	} {
		require.Equal(t, at(want), c.Boundary(n), "period %d", n)
	}
}

func TestQuarterlyOnThe29thTo31st(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 31))
	for m := time.January; m <= time.December; m++ {
		for d := 29; d <= lastDay(2027, m); d++ {
			c := mustNew(t, time.Date(2027, m, d, 6, 0, 0, 0, time.UTC), quarterly)
			checkCalendarSeries(t, c, 16)
			checkBilledOnce(t, c, 16, rng)
		}
	}
	c := mustNew(t, at("2027-11-30T06:00:00Z"), quarterly)
	require.Equal(t, at("2028-02-29T06:00:00Z"), c.Boundary(1))
	require.Equal(t, at("2028-05-30T06:00:00Z"), c.Boundary(2))
	require.Equal(t, at("2028-08-30T06:00:00Z"), c.Boundary(3))
	c = mustNew(t, at("2027-08-31T06:00:00Z"), quarterly)
	require.Equal(t, at("2027-11-30T06:00:00Z"), c.Boundary(1))
	require.Equal(t, at("2028-02-29T06:00:00Z"), c.Boundary(2))
	require.Equal(t, at("2028-05-31T06:00:00Z"), c.Boundary(3))
}

func TestEverySixMonthsFrom31August(t *testing.T) {
	t.Parallel()
	c := mustNew(t, at("2027-08-31T00:00:00Z"), Interval{Month, 6})
	checkCalendarSeries(t, c, 10)
	require.Equal(t, at("2028-02-29T00:00:00Z"), c.Boundary(1))
	require.Equal(t, at("2028-08-31T00:00:00Z"), c.Boundary(2))
}

func TestDaysAndWeeksAreFixedLengths(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 1))
	for _, tc := range []struct {
		every   Interval
		seconds int64
	}{
		{Interval{Day, 1}, 86_400},
		{Interval{Day, 3}, 3 * 86_400},
		{Interval{Week, 1}, 7 * 86_400},
		{Interval{Week, 2}, 14 * 86_400},
	} {
		c := mustNew(t, at("2028-02-27T23:59:59.5Z"), tc.every)
		for n := range 800 {
			p := c.Period(n)
			require.Equal(t, tc.seconds, p.Seconds(), "%s period %d", tc.every, n)
			require.Equal(t, c.Anchor().Add(time.Duration(n*int(tc.seconds))*time.Second), p.Start)
			require.Equal(t, n, c.PeriodAt(p.Start).Index)
			require.Equal(t, n, c.PeriodAt(p.End.Add(-time.Nanosecond)).Index)
		}
		checkBilledOnce(t, c, 200, rng)
	}
	daily := mustNew(t, at("2028-02-28T10:00:00Z"), Interval{Day, 1})
	require.Equal(t, at("2028-02-29T10:00:00Z"), daily.Boundary(1))
	require.Equal(t, at("2028-03-01T10:00:00Z"), daily.Boundary(2))
	require.Equal(t, at("2029-02-27T10:00:00Z"), daily.Boundary(365))
}

func TestTimeOfDayIsKeptAndTheAnchorIsReadInUTC(t *testing.T) {
	t.Parallel()
	c := mustNew(t, at("2026-01-31T23:59:59.999999999Z"), monthly)
	require.Equal(t, at("2026-02-28T23:59:59.999999999Z"), c.Boundary(1))
	require.Equal(t, at("2026-03-31T23:59:59.999999999Z"), c.Boundary(2))

	// 31 January 23:30 in New York is 1 February 04:30 UTC: the calendar
	// bills on the 1st.
	ny := time.FixedZone("EST", -5*3600)
	c = mustNew(t, time.Date(2026, time.January, 31, 23, 30, 0, 0, ny), monthly)
	require.Equal(t, time.UTC, c.Anchor().Location())
	require.Equal(t, at("2026-03-01T04:30:00Z"), c.Boundary(1))
	require.Equal(t, time.UTC, c.PeriodAt(time.Date(2026, time.March, 5, 0, 0, 0, 0, ny)).Start.Location())
}

func TestPeriodAtAndPeriodsBetween(t *testing.T) {
	t.Parallel()
	c := mustNew(t, at("2026-01-31T09:30:00Z"), monthly)
	for _, tc := range []struct {
		t     string
		index int
	}{
		{"2026-01-31T09:30:00Z", 0},
		{"2026-02-28T09:29:59.999999999Z", 0},
		{"2026-02-28T09:30:00Z", 1},
		{"2026-03-30T00:00:00Z", 1},
		{"2026-03-31T09:30:00Z", 2},
		{"2027-01-31T09:30:00Z", 12},
		{"2026-01-31T09:29:59Z", -1},
		{"2025-12-31T09:30:00Z", -1},
		{"2025-12-31T09:29:59Z", -2},
	} {
		p := c.PeriodAt(at(tc.t))
		require.Equal(t, tc.index, p.Index, tc.t)
		require.True(t, p.Contains(at(tc.t)), tc.t)
		require.Equal(t, c.Period(tc.index), p)
	}
	require.Equal(t, 0, c.PeriodsBetween(at("2026-02-01T00:00:00Z"), at("2026-02-28T09:29:59Z")))
	require.Equal(t, 1, c.PeriodsBetween(at("2026-02-01T00:00:00Z"), at("2026-02-28T09:30:00Z")))
	require.Equal(t, 0, c.PeriodsBetween(at("2026-02-28T09:30:00Z"), at("2026-02-28T09:30:00Z")))
	require.Equal(t, 12, c.PeriodsBetween(at("2026-01-31T09:30:00Z"), at("2027-01-31T09:30:00Z")))
	require.Equal(t, -12, c.PeriodsBetween(at("2027-01-31T09:30:00Z"), at("2026-01-31T09:30:00Z")))
}

// PeriodAt finds the containing period from anywhere, decades before or
// after the anchor, for every kind of interval.
func TestPeriodAtAlwaysContainsTheInstant(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	intervals := []Interval{{Day, 1}, {Day, 5}, {Week, 1}, {Week, 3}, {Month, 1}, {Month, 3}, {Month, 6}, {Month, 7}, {Year, 1}, {Year, 2}}
	base := at("1990-01-01T00:00:00Z").Unix()
	span := at("2110-01-01T00:00:00Z").Unix() - base
	for range 20_000 {
		anchor := time.Unix(base+rng.Int64N(span), rng.Int64N(1e9))
		c := mustNew(t, anchor, intervals[rng.IntN(len(intervals))])
		x := time.Unix(base+rng.Int64N(span), rng.Int64N(1e9))
		p := c.PeriodAt(x)
		require.True(t, p.Contains(x), "%s from %s: %s not in %+v", c.Interval(), anchor, x, p)
		require.Equal(t, c.Period(p.Index), p)
	}
}
