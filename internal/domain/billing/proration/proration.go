// Package proration prices a product swap in the middle of a billing
// period (spec doc 2 §4.4, product swap rules 1-5): a credit for the unused
// part of what was charged for the period and a charge for the new price
// over the same remaining window.
//
// The proportion is counted to the second: the seconds of the period left
// after the swap over the seconds in the period. A second the swap has
// started counts as used, so the window of both lines starts at the swap
// instant truncated to the whole second from the period's start and ends
// with the period.
//
// Rounding rule: each line is amount × seconds left / seconds in period,
// computed exactly in 128-bit integers and rounded once to the nearest
// minor unit, halves to the even unit (banker's rounding). Each line is
// therefore within half a minor unit of its exact value, exact halves
// (an odd price at half a period) do not lean towards the merchant or the
// customer over many swaps, and since what was charged is a whole number
// of minor units that the exact credit never exceeds, the rounded credit
// never exceeds it either. The total is the exact sum of the rounded
// lines, never rounded on its own.
package proration

import (
	"errors"
	"math/big"
	"math/bits"
	"strconv"
	"time"

	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
)

// Behavior is a subscription's proration_behavior, fixed when it is
// created (rule 1).
type Behavior string

// Behaviours.
const (
	// CreateProrations puts the credit and the charge on the next cycle's
	// invoice.
	CreateProrations Behavior = "create_prorations"
	// AlwaysInvoice settles the credit and the charge at once: a proration
	// invoice when the total is positive, a credit when it is negative.
	AlwaysInvoice Behavior = "always_invoice"
	// None prorates nothing: the unused part is forfeited and the new
	// product is billed at full price from the next cycle.
	None Behavior = "none"
)

// Valid reports whether b is a known behaviour.
func (b Behavior) Valid() bool {
	return b == CreateProrations || b == AlwaysInvoice || b == None
}

// Kind tells the two lines of a swap apart.
type Kind string

// Line kinds.
const (
	// Credit returns the unused part of what was charged for the period.
	Credit Kind = "credit"
	// Charge bills the new price for the rest of the period.
	Charge Kind = "charge"
)

// Proportion is the exact share of the period a line covers: SecondsLeft
// over SecondsInPeriod, kept unreduced so an invoice line can show both.
type Proportion struct {
	SecondsLeft     int64
	SecondsInPeriod int64
}

// Rat is the proportion as an exact rational.
func (p Proportion) Rat() *big.Rat { return big.NewRat(p.SecondsLeft, p.SecondsInPeriod) }

// String writes "seconds left/seconds in period".
func (p Proportion) String() string {
	return strconv.FormatInt(p.SecondsLeft, 10) + "/" + strconv.FormatInt(p.SecondsInPeriod, 10)
}

// Line is one proration line: Amount in minor units, negative for a credit,
// for the window [Start, End).
type Line struct {
	Kind       Kind
	Amount     int64
	Start      time.Time
	End        time.Time
	Proportion Proportion
}

// Swap is a product swap to price.
type Swap struct {
	// Period is the billing period the swap falls in.
	Period calendar.Period
	// At is the swap instant: Period.Start ≤ At < Period.End.
	At time.Time
	// Charged is what was actually charged for Period, in minor units
	// (after discounts and phase pricing; not the list price).
	Charged int64
	// NewPrice is the new product's price for a whole period, in minor
	// units.
	NewPrice int64
	// Behavior is the subscription's proration_behavior.
	Behavior Behavior
}

// Result is the priced swap: for create_prorations and always_invoice the
// credit line then the charge line (both present even when zero, so every
// swap shows its window); for none, no line. Total is the sum of the
// lines' amounts: positive is owed by the customer, negative owed to them.
type Result struct {
	Lines []Line
	Total int64
}

// Errors of a swap that cannot be priced.
var (
	ErrUnknownBehavior = errors.New("proration: unknown proration behavior")
	ErrNegativeAmount  = errors.New("proration: amount is negative")
	ErrInvalidPeriod   = errors.New("proration: period is not a positive whole number of seconds")
	ErrOutsidePeriod   = errors.New("proration: swap instant is outside the period")
)

// Prorate prices s by the package's rounding rule.
func Prorate(s Swap) (Result, error) {
	if !s.Behavior.Valid() {
		return Result{}, ErrUnknownBehavior
	}
	if s.Charged < 0 || s.NewPrice < 0 {
		return Result{}, ErrNegativeAmount
	}
	p := s.Period
	if !p.End.After(p.Start) || p.Start.Nanosecond() != p.End.Nanosecond() {
		return Result{}, ErrInvalidPeriod
	}
	if !p.Contains(s.At) {
		return Result{}, ErrOutsidePeriod
	}
	if s.Behavior == None {
		return Result{}, nil
	}
	total := p.Seconds()
	used := wholeSecondsBetween(p.Start, s.At)
	prop := Proportion{SecondsLeft: total - used, SecondsInPeriod: total}
	start := time.Unix(p.Start.Unix()+used, int64(p.Start.Nanosecond())).UTC()
	credit := Line{Kind: Credit, Amount: -share(s.Charged, prop), Start: start, End: p.End, Proportion: prop}
	charge := Line{Kind: Charge, Amount: share(s.NewPrice, prop), Start: start, End: p.End, Proportion: prop}
	// charge ≤ MaxInt64 and credit ≤ 0 with |credit| ≤ MaxInt64: no overflow.
	return Result{Lines: []Line{credit, charge}, Total: charge.Amount + credit.Amount}, nil
}

// wholeSecondsBetween is the number of whole seconds from from to to
// (to ≥ from), rounded down.
func wholeSecondsBetween(from, to time.Time) int64 {
	s := to.Unix() - from.Unix()
	if to.Nanosecond() < from.Nanosecond() {
		s--
	}
	return s
}

// share is amount × p rounded to the nearest integer, halves to even. The
// product is held in 128 bits, so it is exact for every int64 amount, and
// the result never exceeds amount because p ≤ 1.
func share(amount int64, p Proportion) int64 {
	den := uint64(p.SecondsInPeriod)
	hi, lo := bits.Mul64(uint64(amount), uint64(p.SecondsLeft))
	// hi < den: amount × left < 2^63 × den.
	q, r := bits.Div64(hi, lo, den)
	// r < den < 2^63, so 2r does not overflow.
	if twice := 2 * r; twice > den || (twice == den && q%2 == 1) {
		q++
	}
	return int64(q)
}
