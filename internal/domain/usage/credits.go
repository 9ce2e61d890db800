package usage

import "math/big"

// Pool is what remains of one credit pool: Available units.
type Pool struct {
	Available *big.Rat
}

// Take takes need units from pools in the order given (the consumption
// order: earliest expiry, then created, then id), each pool at most what
// it holds. It answers what it took from each pool (same order, zero for
// the pools left untouched) and the total taken, never more than need nor
// than the pools hold; the pools' Available shrink by what was taken.
func Take(pools []Pool, need *big.Rat) (taken []*big.Rat, total *big.Rat) {
	taken = make([]*big.Rat, len(pools))
	total = new(big.Rat)
	left := new(big.Rat).Set(need)
	for i, p := range pools {
		t := new(big.Rat)
		if left.Sign() > 0 && p.Available.Sign() > 0 {
			t.Set(p.Available)
			if t.Cmp(left) > 0 {
				t.Set(left)
			}
			p.Available.Sub(p.Available, t)
			left.Sub(left, t)
			total.Add(total, t)
		}
		taken[i] = t
	}
	return taken, total
}

// Charged is the usage a line charges for: usage less the credits
// applied, or nothing when the payer held a limited pool for the product
// (limited pools cap the billed usage at what they cover).
func Charged(usage, credits *big.Rat, limited bool) *big.Rat {
	if limited {
		return new(big.Rat)
	}
	c := new(big.Rat).Sub(usage, credits)
	if c.Sign() < 0 {
		return new(big.Rat)
	}
	return c
}

// Percentage is part/whole·100 rounded half up to two decimals, as a
// float for the wire (a display value, never money); zero when whole is.
// Exact for any int64 part and whole.
func Percentage(part, whole int64) float64 {
	if whole <= 0 {
		return 0
	}
	r := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(part), big.NewInt(100*100)), big.NewInt(whole))
	// r + 1/2, rounded down: half up for a non-negative part.
	r.Add(r, big.NewRat(1, 2))
	q := new(big.Int).Quo(r.Num(), r.Denom())
	f, _ := new(big.Rat).SetFrac(q, big.NewInt(100)).Float64()
	return f
}
