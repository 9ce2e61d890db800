// Package calendar is the billing calendar (API-DECISIONS §7): the periods
// of a subscription, numbered from its anchor.
//
// Period n is [anchor + n intervals, anchor + (n+1) intervals), half-open,
// in UTC. Every boundary is computed from the anchor, never chained from
// the previous boundary, so a clamp in a short month never drifts the
// series: a month of an anchor on the 31st ends on the 28th (29th) of
// February, then on the 31st of March, the 30th of April. Month and year
// arithmetic keeps the anchor's day of the month and clamps it to the last
// day of the target month; time.AddDate is not used for it because it
// normalises 31 January + 1 month to 3 March. Days and weeks are fixed
// lengths (UTC has no daylight saving). The anchor's time of day, to the
// nanosecond, is kept on every boundary.
package calendar

import (
	"time"
)

// Calendar is the series of periods of one anchor and interval. Make one
// with New: the zero value has no interval.
type Calendar struct {
	anchor time.Time
	every  Interval
}

// Period is one billing period: [Start, End), with Index its number from
// the anchor (0 is the period that starts at the anchor; periods before
// the anchor have negative numbers).
type Period struct {
	Index int
	Start time.Time
	End   time.Time
}

// New is the calendar of anchor and every. The anchor is read in UTC: its
// UTC day of the month is the day every monthly boundary falls on.
func New(anchor time.Time, every Interval) (Calendar, error) {
	if err := every.Validate(); err != nil {
		return Calendar{}, err
	}
	return Calendar{anchor: anchor.UTC(), every: every}, nil
}

// Anchor is the instant period 0 starts, in UTC.
func (c Calendar) Anchor() time.Time { return c.anchor }

// Interval is the length of each period.
func (c Calendar) Interval() Interval { return c.every }

// Boundary is anchor + n intervals: the start of period n and the end of
// period n−1.
func (c Calendar) Boundary(n int) time.Time {
	a := c.anchor
	switch c.every.Unit {
	case Day, Week:
		// time.Date normalises a day past the month's end exactly, and in
		// UTC every day is 86 400 seconds.
		return time.Date(a.Year(), a.Month(), a.Day()+n*c.every.days(),
			a.Hour(), a.Minute(), a.Second(), a.Nanosecond(), time.UTC)
	}
	month := a.Year()*12 + int(a.Month()) - 1 + n*c.every.months()
	y := floorDiv(month, 12)
	m := time.Month(month - 12*y + 1)
	d := min(a.Day(), daysIn(y, m))
	return time.Date(y, m, d, a.Hour(), a.Minute(), a.Second(), a.Nanosecond(), time.UTC)
}

// Period is period n.
func (c Calendar) Period(n int) Period {
	return Period{Index: n, Start: c.Boundary(n), End: c.Boundary(n + 1)}
}

// PeriodAt is the period that contains t: the one with Start ≤ t < End.
// An instant on a boundary belongs to the period that starts there.
func (c Calendar) PeriodAt(t time.Time) Period {
	t = t.UTC()
	n := c.estimate(t)
	for c.Boundary(n).After(t) {
		n--
	}
	for !c.Boundary(n + 1).After(t) {
		n++
	}
	return c.Period(n)
}

// PeriodsBetween is the number of periods that start in (from, to]: how
// many renewals fall due when time moves from from to to. It is negative
// when to is before from.
func (c Calendar) PeriodsBetween(from, to time.Time) int {
	return c.PeriodAt(to).Index - c.PeriodAt(from).Index
}

// estimate is the number of the period containing t, or one off: PeriodAt
// corrects it by a step or two.
func (c Calendar) estimate(t time.Time) int {
	a := c.anchor
	switch c.every.Unit {
	case Day, Week:
		span := int64(c.every.days()) * 86_400
		return int(floorDiv64(t.Unix()-a.Unix(), span))
	}
	months := (t.Year()-a.Year())*12 + int(t.Month()) - int(a.Month())
	return floorDiv(months, c.every.months())
}

// Contains reports whether t is in [Start, End).
func (p Period) Contains(t time.Time) bool {
	return !t.Before(p.Start) && t.Before(p.End)
}

// Seconds is the length of the period in seconds. Periods of a calendar
// are whole seconds long: both ends keep the anchor's time of day.
func (p Period) Seconds() int64 {
	return p.End.Unix() - p.Start.Unix()
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// floorDiv is a / b rounded toward negative infinity (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func floorDiv64(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
