package calendar

import (
	"errors"
	"strconv"
)

// Unit is the calendar unit an interval counts.
type Unit string

// Units. Days and weeks are fixed lengths of time (UTC has no daylight
// saving); months and years follow the calendar.
const (
	Day   Unit = "day"
	Week  Unit = "week"
	Month Unit = "month"
	Year  Unit = "year"
)

// MaxCount bounds an interval's count: far beyond any billing interval,
// and small enough that no boundary arithmetic can overflow.
const MaxCount = 1000

// ErrInvalidInterval is an interval with an unknown unit or a count
// outside 1..MaxCount.
var ErrInvalidInterval = errors.New("calendar: invalid interval")

// Interval is the length of one billing period: Count units (quarterly is
// 3 months).
type Interval struct {
	Unit  Unit
	Count int
}

// Validate checks the unit and the count.
func (iv Interval) Validate() error {
	switch iv.Unit {
	case Day, Week, Month, Year:
	default:
		return ErrInvalidInterval
	}
	if iv.Count < 1 || iv.Count > MaxCount {
		return ErrInvalidInterval
	}
	return nil
}

// String writes the interval as "1 month" or "3 months".
func (iv Interval) String() string {
	s := strconv.Itoa(iv.Count) + " " + string(iv.Unit)
	if iv.Count != 1 {
		s += "s"
	}
	return s
}

// OfRecurring is the interval of a product's recurring_interval (spec doc
// 2 §4.1): daily, weekly, monthly, yearly, every_3_months, every_6_months.
func OfRecurring(recurringInterval string) (Interval, error) {
	switch recurringInterval {
	case "daily":
		return Interval{Day, 1}, nil
	case "weekly":
		return Interval{Week, 1}, nil
	case "monthly":
		return Interval{Month, 1}, nil
	case "yearly":
		return Interval{Year, 1}, nil
	case "every_3_months":
		return Interval{Month, 3}, nil
	case "every_6_months":
		return Interval{Month, 6}, nil
	}
	return Interval{}, ErrInvalidInterval
}

// days is the interval in days (day and week units only).
func (iv Interval) days() int {
	if iv.Unit == Week {
		return 7 * iv.Count
	}
	return iv.Count
}

// months is the interval in months (month and year units only).
func (iv Interval) months() int {
	if iv.Unit == Year {
		return 12 * iv.Count
	}
	return iv.Count
}
