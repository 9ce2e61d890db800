package proration

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
)

// The product intervals, plus a few counts beyond them.
var propertyIntervals = []calendar.Interval{
	{Unit: calendar.Day, Count: 1},
	{Unit: calendar.Week, Count: 1},
	{Unit: calendar.Month, Count: 1},
	{Unit: calendar.Month, Count: 3},
	{Unit: calendar.Month, Count: 6},
	{Unit: calendar.Year, Count: 1},
	{Unit: calendar.Day, Count: 10},
	{Unit: calendar.Week, Count: 2},
	{Unit: calendar.Year, Count: 3},
}

var behaviors = []Behavior{CreateProrations, AlwaysInvoice, None}

// randomAmount spreads amounts over every magnitude, up to the largest.
func randomAmount(rng *rand.Rand) int64 {
	switch rng.IntN(6) {
	case 0:
		return rng.Int64N(10)
	case 1:
		return rng.Int64N(10_000)
	case 2:
		return rng.Int64N(100_000_000)
	case 3:
		return rng.Int64N(1 << 50)
	case 4:
		return math.MaxInt64 - rng.Int64N(1000)
	}
	return rng.Int64()
}

// randomSwapInstant is anywhere in the period, with its edges and exact
// halves (where rounding ties) over-represented.
func randomSwapInstant(rng *rand.Rand, p calendar.Period) time.Time {
	seconds := p.Seconds()
	switch rng.IntN(8) {
	case 0:
		return p.Start
	case 1:
		return p.End.Add(-time.Duration(1 + rng.Int64N(int64(2*time.Second))))
	case 2:
		return time.Unix(p.Start.Unix()+seconds/2, int64(p.Start.Nanosecond())).UTC()
	}
	return time.Unix(p.Start.Unix()+rng.Int64N(seconds), int64(p.Start.Nanosecond())+rng.Int64N(1e9)).UTC()
}

// roundingError describes how got fails to be exact (a rational) rounded
// to the nearest integer, halves to even, or is "" when it is.
func roundingError(got int64, exact *big.Rat) string {
	diff := new(big.Rat).Sub(new(big.Rat).SetInt64(got), exact)
	switch new(big.Rat).Abs(diff).Cmp(big.NewRat(1, 2)) {
	case 1:
		return fmt.Sprintf("%d is more than half a unit from %s", got, exact.FloatString(3))
	case 0:
		if got%2 != 0 {
			return fmt.Sprintf("%d: the tie %s must go to the even unit", got, exact.FloatString(3))
		}
	}
	return ""
}

// secondsLeft is the exact count of seconds from at to the period's end,
// a started second counting as used: ceil((end − at) / 1 s).
func secondsLeft(p calendar.Period, at time.Time) int64 {
	ns := new(big.Int).Mul(big.NewInt(p.End.Unix()-at.Unix()), big.NewInt(1e9))
	ns.Add(ns, big.NewInt(int64(p.End.Nanosecond()-at.Nanosecond())))
	q, r := new(big.Int).QuoRem(ns, big.NewInt(1e9), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

// violation is the first property of a priced swap that does not hold,
// or "" when all do.
func violation(s Swap, got Result) string {
	if s.Behavior == None {
		if len(got.Lines) != 0 || got.Total != 0 {
			return "none prorates nothing"
		}
		return ""
	}
	if len(got.Lines) != 2 || got.Lines[0].Kind != Credit || got.Lines[1].Kind != Charge {
		return "a credit line then a charge line"
	}
	credit, charge := got.Lines[0], got.Lines[1]
	left := secondsLeft(s.Period, s.At)
	want := Proportion{SecondsLeft: left, SecondsInPeriod: s.Period.Seconds()}
	for _, l := range got.Lines {
		switch {
		case l.Proportion != want:
			return fmt.Sprintf("%s proportion %s, want %s", l.Kind, l.Proportion, want)
		case !l.End.Equal(s.Period.End):
			return fmt.Sprintf("%s window ends at %s, not at the period's end", l.Kind, l.End)
		case l.Start.After(s.At) || s.At.Sub(l.Start) >= time.Second:
			return fmt.Sprintf("%s window starts at %s, not in the second of the swap", l.Kind, l.Start)
		case l.End.Unix()-l.Start.Unix() != left || l.End.Nanosecond() != l.Start.Nanosecond():
			return fmt.Sprintf("%s window [%s, %s) is not %d seconds", l.Kind, l.Start, l.End, left)
		}
	}
	prop := want.Rat()
	if e := roundingError(-credit.Amount, new(big.Rat).Mul(new(big.Rat).SetInt64(s.Charged), prop)); e != "" {
		return "credit " + e
	}
	if e := roundingError(charge.Amount, new(big.Rat).Mul(new(big.Rat).SetInt64(s.NewPrice), prop)); e != "" {
		return "charge " + e
	}
	switch {
	case credit.Amount > 0 || -credit.Amount > s.Charged:
		return fmt.Sprintf("credit %d is not within what was charged (%d)", credit.Amount, s.Charged)
	case charge.Amount < 0 || charge.Amount > s.NewPrice:
		return fmt.Sprintf("charge %d is not within the new price (%d)", charge.Amount, s.NewPrice)
	}
	sum := new(big.Int).Add(big.NewInt(credit.Amount), big.NewInt(charge.Amount))
	if sum.Cmp(big.NewInt(got.Total)) != 0 {
		return fmt.Sprintf("total %d is not the sum of the lines (%s)", got.Total, sum)
	}
	return ""
}

// 100 000 random swaps (seeded: the same cases on every run) over every
// interval, amounts of every magnitude, swap instants anywhere in the
// period and every behaviour: each line is its exact value rounded by the
// package's rule, the credit never exceeds what was charged, the charge
// never exceeds the new price, the window is the rest of the period, and
// the total is the sum of the lines.
func TestProrationProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(18, 44))
	base := time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC).Unix()
	span := time.Date(2100, time.January, 1, 0, 0, 0, 0, time.UTC).Unix() - base
	prorated, ties := 0, 0
	for i := range 100_000 {
		anchor := time.Unix(base+rng.Int64N(span), 0).UTC()
		if rng.IntN(4) == 0 {
			anchor = anchor.Add(time.Duration(rng.Int64N(1e9)))
		}
		c, err := calendar.New(anchor, propertyIntervals[rng.IntN(len(propertyIntervals))])
		require.NoError(t, err)
		period := c.Period(rng.IntN(60))
		s := Swap{
			Period:   period,
			At:       randomSwapInstant(rng, period),
			Charged:  randomAmount(rng),
			NewPrice: randomAmount(rng),
			Behavior: behaviors[rng.IntN(len(behaviors))],
		}
		got, err := Prorate(s)
		if err != nil {
			t.Fatalf("case %d: %v: %+v", i, err, s)
		}
		if v := violation(s, got); v != "" {
			t.Fatalf("case %d: %s\nswap %+v\nresult %+v", i, v, s, got)
		}
		if len(got.Lines) > 0 {
			prorated++
			if 2*got.Lines[0].Proportion.SecondsLeft == got.Lines[0].Proportion.SecondsInPeriod {
				ties++
			}
		}
	}
	require.Greater(t, prorated, 60_000, "most cases prorate")
	require.Greater(t, ties, 5_000, "exact halves are exercised")
}
