// Package amount is the one bound on money (DESIGN.md, "Data";
// docs/billing.md, "The bound on money"). Every amount in minor units, every
// quantity, unit price and usage value the API stores or charges, and every
// product and sum of them, lies within Max. The checks here are exact: a
// product or a sum is computed without wrapping and compared with Max, so a
// result beyond it is refused, never stored wrapped.
package amount

import (
	"math/big"
	"math/bits"
	"strconv"
)

// Max is the largest amount, in minor units ($999,999,999.99), and the
// largest quantity, unit price and usage value. It is far above any real
// payment and far below where int64 arithmetic wraps: the sum of 90 million
// amounts at Max still fits an int64.
const Max int64 = 99_999_999_999

// Problem is the message of a member beyond Max.
var Problem = "must be at most " + strconv.FormatInt(Max, 10)

// Within reports whether n lies in [-Max, Max].
func Within(n int64) bool { return n >= -Max && n <= Max }

// Mul answers a × b, exactly, and whether it lies within Max. Any int64
// operands are accepted: the product is computed on 128 bits, so it never
// wraps.
func Mul(a, b int64) (int64, bool) {
	neg := (a < 0) != (b < 0)
	hi, lo := bits.Mul64(abs(a), abs(b))
	if hi != 0 || lo > uint64(Max) {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

// Sum answers the sum of ns, exactly, and whether it and every partial sum
// lie within Max (so no intermediate total a caller stores can be beyond
// it either).
func Sum(ns ...int64) (int64, bool) {
	var total int64
	for _, n := range ns {
		if !Within(n) {
			return 0, false
		}
		total += n // both within Max: no wrap
		if !Within(total) {
			return 0, false
		}
	}
	return total, true
}

// Add is a + b when it lies within Max.
func Add(a, b int64) (int64, bool) { return Sum(a, b) }

// RoundHalfUp rounds r to the nearest integer, halves away from zero, and
// answers it when it lies within Max.
func RoundHalfUp(r *big.Rat) (int64, bool) {
	num := new(big.Int).Abs(r.Num())
	n := new(big.Int).Mul(num, big.NewInt(2))
	n.Add(n, r.Denom())
	n.Quo(n, new(big.Int).Mul(r.Denom(), big.NewInt(2)))
	if r.Sign() < 0 {
		n.Neg(n)
	}
	return fromInt(n)
}

// RoundHalfEven rounds r to the nearest integer, halves to the even one,
// and answers it when it lies within Max.
func RoundHalfEven(r *big.Rat) (int64, bool) {
	num := new(big.Int).Abs(r.Num())
	q, m := new(big.Int).QuoRem(num, r.Denom(), new(big.Int))
	switch new(big.Int).Mul(m, big.NewInt(2)).Cmp(r.Denom()) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	if r.Sign() < 0 {
		q.Neg(q)
	}
	return fromInt(q)
}

// RatWithin reports whether the exact value r lies within Max.
func RatWithin(r *big.Rat) bool {
	limit := new(big.Rat).SetInt64(Max)
	return new(big.Rat).Abs(r).Cmp(limit) <= 0
}

var maxInt = big.NewInt(Max)

func fromInt(n *big.Int) (int64, bool) {
	if new(big.Int).Abs(n).Cmp(maxInt) > 0 {
		return 0, false
	}
	return n.Int64(), true
}

func abs(n int64) uint64 {
	if n < 0 {
		return uint64(-(n + 1)) + 1 // MinInt64 too
	}
	return uint64(n)
}
