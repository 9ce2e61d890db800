// Package funding holds the pure rules of payout funding schedules: the
// cadences and when a schedule runs next.
package funding

import "time"

// Cadence is how often a funding schedule runs.
type Cadence string

// Cadences (spec doc 2 §4.7).
const (
	Daily   Cadence = "daily"
	Weekly  Cadence = "weekly"
	Monthly Cadence = "monthly"
)

// Valid reports whether c is a known cadence.
func (c Cadence) Valid() bool { return c == Daily || c == Weekly || c == Monthly }

// Run is the k-th run of a schedule anchored at anchor (k = 0 is the
// anchor itself): daily and weekly runs are whole days and weeks apart;
// monthly runs fall on the anchor's day of the month in UTC, clamped to
// the last day of shorter months (an anchor on the 31st runs on February
// 28th or 29th and again on March 31st: clamping never drifts the series).
func Run(anchor time.Time, c Cadence, k int) time.Time {
	switch c {
	case Daily:
		return anchor.Add(time.Duration(k) * 24 * time.Hour)
	case Weekly:
		return anchor.Add(time.Duration(k) * 7 * 24 * time.Hour)
	}
	a := anchor.UTC()
	first := time.Date(a.Year(), a.Month(), 1, a.Hour(), a.Minute(), a.Second(), a.Nanosecond(), time.UTC).AddDate(0, k, 0)
	day := min(a.Day(), daysIn(first.Year(), first.Month()))
	return first.AddDate(0, 0, day-1)
}

// NextAfter is the first run of the schedule anchored at anchor strictly
// after t: where a schedule goes once it has run at t. Runs missed while
// the server was down or the schedule disabled are not made up: a due
// schedule funds once and moves to its next run in the future.
func NextAfter(anchor time.Time, c Cadence, t time.Time) time.Time {
	if t.Before(anchor) {
		return anchor
	}
	var k int
	switch c {
	case Daily, Weekly:
		step := 24 * time.Hour
		if c == Weekly {
			step *= 7
		}
		k = int(t.Sub(anchor)/step) + 1
	default:
		a, u := anchor.UTC(), t.UTC()
		k = max((u.Year()-a.Year())*12+int(u.Month())-int(a.Month())-1, 1)
	}
	for !Run(anchor, c, k).After(t) {
		k++
	}
	for k > 1 && Run(anchor, c, k-1).After(t) {
		k--
	}
	return Run(anchor, c, k)
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
