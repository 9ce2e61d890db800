// Package usage holds the pure rules of usage billing (docs/billing.md,
// "Usage billing"): how a window's events aggregate into usage, what a
// usage line costs once credits are applied, and how credits are taken
// from a payer's pools. Everything is exact (math/big.Rat); amounts are
// rounded once, half up, to whole cents.
package usage

import (
	"math/big"

	"github.com/frame-oss/payments-server/internal/domain/amount"
)

// Aggregation is how a meter turns a window's events into usage.
type Aggregation string

// Aggregations.
const (
	Sum   Aggregation = "sum"
	Count Aggregation = "count"
	Max   Aggregation = "max"
)

// Event is one event's share of a window: its value and its markup
// percentage (nil: none). Events are given in timestamp order, so that the
// earliest wins a tie of max.
type Event struct {
	Value  *big.Rat
	Markup *big.Rat
}

// Totals are a window's aggregated usage U and its weighted usage W (the
// usage with each event's markup applied).
type Totals struct {
	Usage    *big.Rat
	Weighted *big.Rat
}

var hundred = big.NewRat(100, 1)

// factor is 1 + markup/100.
func (e Event) factor() *big.Rat {
	f := big.NewRat(1, 1)
	if e.Markup != nil {
		f.Add(f, new(big.Rat).Quo(e.Markup, hundred))
	}
	return f
}

// Aggregate aggregates events: sum adds the values, count counts the
// events, max keeps the largest value (the earliest of equals). Weighted
// usage is Σ value·(1+m/100) for sum, Σ (1+m/100) for count, and the kept
// event's value·(1+m/100) for max.
func Aggregate(agg Aggregation, events []Event) Totals {
	t := Totals{Usage: new(big.Rat), Weighted: new(big.Rat)}
	var top *Event
	for i := range events {
		e := events[i]
		switch agg {
		case Count:
			t.Usage.Add(t.Usage, big.NewRat(1, 1))
			t.Weighted.Add(t.Weighted, e.factor())
		case Max:
			if top == nil || e.Value.Cmp(top.Value) > 0 {
				top = &events[i]
			}
		default:
			t.Usage.Add(t.Usage, e.Value)
			t.Weighted.Add(t.Weighted, new(big.Rat).Mul(e.Value, e.factor()))
		}
	}
	if top != nil {
		t.Usage.Set(top.Value)
		t.Weighted.Mul(top.Value, top.factor())
	}
	return t
}

// Amount is what a usage line charges, in cents: price P per unit of
// weighted usage W, for the part of usage U that credits C do not cover,
// P·W·(U−C)/U rounded half up; zero when U is zero. charged is the usage
// charged for (U−C, or nothing when the payer's limited pools cap it).
// The product is exact (math/big); ok is false when the amount lies
// beyond the bound on money (internal/domain/amount), which it is never
// wrapped into.
func Amount(price int64, t Totals, charged *big.Rat) (cents int64, ok bool) {
	if t.Usage.Sign() == 0 || charged.Sign() <= 0 {
		return 0, true
	}
	r := new(big.Rat).Mul(big.NewRat(price, 1), t.Weighted)
	r.Mul(r, charged)
	r.Quo(r, t.Usage)
	return amount.RoundHalfUp(r)
}
