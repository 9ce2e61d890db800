package phase

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/frame-oss/payments-server/internal/domain/amount"
)

// Priced is a phase as pricing sees it (spec doc 2 §2.4): a static phase
// bills Amount per period; a relative one bills the product's price less
// DiscountPercentage (a decimal string, "0" to "100"). PeriodCount nil
// lasts indefinitely.
type Priced struct {
	Ordinal            int
	Static             bool
	Amount             int64
	DiscountPercentage string
	PeriodCount        *int
}

// InForce answers the index (in phases) of the phase that prices period
// n (0-based, counted from the subscription's anchor), or -1 when every
// phase has run out and the product's own price applies. Phases run in
// ordinal order, each for its period_count periods, the first from period
// 0: the phase in force when a period starts prices the whole period.
func InForce(phases []Priced, n int) int {
	order := make([]int, len(phases))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return phases[order[a]].Ordinal < phases[order[b]].Ordinal })
	start := 0
	for _, i := range order {
		p := phases[i]
		if p.PeriodCount == nil || n < start+*p.PeriodCount {
			return i
		}
		start += *p.PeriodCount
	}
	return -1
}

// Price is what phase p bills for one period of a product priced
// productPrice: the static amount, or the product's price less the
// discount, rounded to the nearest minor unit, halves to even (the rule
// proration uses, docs/billing.md).
func (p Priced) Price(productPrice int64) (int64, error) {
	if p.Static {
		return p.Amount, nil
	}
	pct, ok := new(big.Rat).SetString(p.DiscountPercentage)
	if !ok || pct.Sign() < 0 || pct.Cmp(big.NewRat(100, 1)) > 0 {
		return 0, fmt.Errorf("phase %d: discount_percentage %q is not between 0 and 100", p.Ordinal, p.DiscountPercentage)
	}
	// price × (100 − pct) / 100, exactly, then rounded once.
	keep := new(big.Rat).Sub(big.NewRat(100, 1), pct)
	exact := new(big.Rat).Mul(new(big.Rat).SetInt64(productPrice), keep)
	exact.Quo(exact, big.NewRat(100, 1))
	price, ok := amount.RoundHalfEven(exact)
	if !ok {
		return 0, fmt.Errorf("phase %d: the price of %d is beyond the bound on money", p.Ordinal, productPrice)
	}
	return price, nil
}
