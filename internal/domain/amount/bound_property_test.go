package amount_test

import (
	"math"
	"math/big"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/amount"
	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
	"github.com/frame-oss/payments-server/internal/domain/billing/proration"
	"github.com/frame-oss/payments-server/internal/domain/discount"
	"github.com/frame-oss/payments-server/internal/domain/usage"
)

// Property tests of the bound on money (testing/quick, seeded): the
// arithmetic of amounts, usage pricing, proration, discounts and invoice
// totals, over generated values crowded at the bound (Max, one past it,
// the int64 limits) as well as spread over every magnitude. Each result is
// compared with the same computation on unbounded integers: it is exact
// when within the bound, and refused, never wrapped, beyond it.

// check runs property on count sets of arguments drawn by gen from a
// fixed seed, so that a failure reproduces.
func check(t *testing.T, count int, gen func(r *rand.Rand) []any, property any) {
	t.Helper()
	cfg := &quick.Config{MaxCount: count, Rand: rand.New(rand.NewSource(37)),
		Values: func(args []reflect.Value, r *rand.Rand) {
			for i, v := range gen(r) {
				args[i] = reflect.ValueOf(v)
			}
		}}
	require.NoError(t, quick.Check(property, cfg))
}

// anyInt64 is any int64, crowded at the bound and the type's limits.
func anyInt64(r *rand.Rand) int64 {
	switch r.Intn(10) {
	case 0:
		return amount.Max - r.Int63n(3)
	case 1:
		return amount.Max + 1 + r.Int63n(3)
	case 2:
		return -amount.Max - r.Int63n(3)
	case 3:
		return math.MaxInt64 - r.Int63n(3)
	case 4:
		return math.MinInt64 + r.Int63n(3)
	case 5:
		return r.Int63n(1000) - 500
	case 6:
		return r.Int63n(1 << 40)
	case 7:
		return -r.Int63()
	}
	return r.Int63()
}

// bounded is an amount within [0, Max], crowded at both ends.
func bounded(r *rand.Rand) int64 {
	switch r.Intn(5) {
	case 0:
		return amount.Max - r.Int63n(100)
	case 1:
		return r.Int63n(100)
	case 2:
		return r.Int63n(amount.Max/1000 + 1)
	}
	return r.Int63n(amount.Max + 1)
}

// usageValue is a usage value within the bound with up to 12 decimals.
func usageValue(r *rand.Rand) *big.Rat {
	scale := big.NewInt(1_000_000_000_000)
	var micro *big.Int
	switch r.Intn(4) {
	case 0:
		micro = new(big.Int).Mul(big.NewInt(amount.Max), scale) // the largest
	case 1:
		micro = big.NewInt(r.Int63n(1_000_000)) // a few millionths
	default:
		micro = new(big.Int).Mul(big.NewInt(r.Int63n(amount.Max+1)), scale)
		micro.Sub(micro, big.NewInt(r.Int63n(1_000_000_000_000)))
		if micro.Sign() < 0 {
			micro.SetInt64(0)
		}
	}
	return new(big.Rat).SetFrac(micro, scale)
}

var maxRat = new(big.Rat).SetInt64(amount.Max)

// roundHalfUp is the reference rounding on unbounded integers.
func roundHalfUp(r *big.Rat) *big.Int {
	n := new(big.Int).Mul(new(big.Int).Abs(r.Num()), big.NewInt(2))
	n.Add(n, r.Denom())
	n.Quo(n, new(big.Int).Mul(r.Denom(), big.NewInt(2)))
	if r.Sign() < 0 {
		n.Neg(n)
	}
	return n
}

// agrees says whether a bounded result (got, ok) is the exact value when
// it lies within the bound, and refused exactly when it does not.
func agrees(got int64, ok bool, exact *big.Int) bool {
	within := new(big.Int).Abs(exact).Cmp(big.NewInt(amount.Max)) <= 0
	return ok == within && (!ok || got == exact.Int64())
}

func TestMulAndSumAreExactOrRefused(t *testing.T) {
	t.Parallel()
	check(t, 50000, func(r *rand.Rand) []any { return []any{anyInt64(r), anyInt64(r)} }, func(a, b int64) bool {
		got, ok := amount.Mul(a, b)
		return agrees(got, ok, new(big.Int).Mul(big.NewInt(a), big.NewInt(b)))
	})
	check(t, 20000, func(r *rand.Rand) []any {
		ns := make([]int64, r.Intn(6))
		for i := range ns {
			ns[i] = anyInt64(r)
			if r.Intn(2) == 0 {
				ns[i] = bounded(r)
			}
		}
		return []any{ns}
	}, func(ns []int64) bool {
		got, ok := amount.Sum(ns...)
		exact, partialsWithin := new(big.Int), true
		for _, n := range ns {
			exact.Add(exact, big.NewInt(n))
			partialsWithin = partialsWithin && amount.Within(n) && new(big.Int).Abs(exact).Cmp(big.NewInt(amount.Max)) <= 0
		}
		return ok == partialsWithin && (!ok || got == exact.Int64())
	})
}

func TestRoundingIsExactOrRefused(t *testing.T) {
	t.Parallel()
	check(t, 20000, func(r *rand.Rand) []any {
		return []any{anyInt64(r), 1 + r.Int63n(1<<20)}
	}, func(num, den int64) bool {
		x := big.NewRat(num, den)
		got, ok := amount.RoundHalfUp(x)
		return agrees(got, ok, roundHalfUp(x))
	})
}

// A usage line's amount is P·W·(U−C)/U rounded half up: exact, or refused
// when beyond the bound; never negative.
func TestUsagePricingIsExactOrRefusedAtTheBound(t *testing.T) {
	t.Parallel()
	check(t, 5000, func(r *rand.Rand) []any {
		u := usageValue(r)
		w := new(big.Rat).Mul(u, new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Quo(usageValue(r), big.NewRat(100, 1))))
		if r.Intn(3) == 0 {
			w.Set(u) // no markup
		}
		credits := new(big.Rat).Mul(u, big.NewRat(r.Int63n(5), 4)) // none to more than the usage
		return []any{bounded(r), u, w, credits, r.Intn(4) == 0}
	}, func(price int64, u, w, credits *big.Rat, limited bool) bool {
		tot := usage.Totals{Usage: u, Weighted: w}
		charged := usage.Charged(u, credits, limited)
		got, ok := usage.Amount(price, tot, charged)
		if u.Sign() == 0 || charged.Sign() <= 0 {
			return ok && got == 0
		}
		exact := new(big.Rat).Mul(big.NewRat(price, 1), w)
		exact.Mul(exact, charged).Quo(exact, u)
		return got >= 0 && agrees(got, ok, roundHalfUp(exact))
	})
}

// A swap of amounts within the bound prorates within it: each line at
// most what it prorates, the total within [−Max, Max].
func TestProrationStaysWithinTheBound(t *testing.T) {
	t.Parallel()
	cal, err := calendar.New(time.Date(2026, 1, 31, 9, 30, 0, 0, time.UTC), calendar.Interval{Unit: calendar.Month, Count: 1})
	require.NoError(t, err)
	check(t, 20000, func(r *rand.Rand) []any {
		p := cal.Period(r.Intn(24))
		at := p.Start.Add(time.Duration(r.Int63n(int64(p.End.Sub(p.Start)))))
		return []any{bounded(r), bounded(r), p.Start, at}
	}, func(charged, price int64, start, at time.Time) bool {
		p := cal.PeriodAt(start)
		res, err := proration.Prorate(proration.Swap{Period: p, At: at, Charged: charged, NewPrice: price,
			Behavior: proration.AlwaysInvoice})
		if err != nil {
			return false
		}
		credit, charge := res.Lines[0].Amount, res.Lines[1].Amount
		return -charged <= credit && credit <= 0 && 0 <= charge && charge <= price && amount.Within(res.Total) &&
			res.Total == credit+charge
	})
}

// Coupons at the bound never take off more than the order or than their
// cap, never a negative amount, and stacked never more than the order.
func TestDiscountsStayWithinTheOrder(t *testing.T) {
	t.Parallel()
	check(t, 20000, func(r *rand.Rand) []any {
		coupons := make([]discount.Coupon, 1+r.Intn(4))
		for i := range coupons {
			c := discount.Coupon{Percentage: r.Intn(2) == 0, Value: bounded(r)}
			if c.Percentage {
				c.Value = r.Int63n(10001)
			}
			if r.Intn(3) == 0 {
				cp := bounded(r)
				c.Cap = &cp
			}
			coupons[i] = c
		}
		return []any{bounded(r), coupons}
	}, func(order int64, coupons []discount.Coupon) bool {
		each, total := discount.Stack(order, coupons)
		var sum int64
		for i, off := range each {
			if off < 0 || (coupons[i].Cap != nil && off > *coupons[i].Cap) {
				return false
			}
			sum += off
		}
		return sum == total && total >= 0 && total <= order
	})
}

// An invoice's total is the exact sum of its lines' quantity × unit
// price, or refused when a line or the total lies beyond the bound.
func TestInvoiceTotalsAreExactOrRefused(t *testing.T) {
	t.Parallel()
	type line struct{ Quantity, Unit int64 }
	check(t, 20000, func(r *rand.Rand) []any {
		lines := make([]line, 1+r.Intn(5))
		for i := range lines {
			lines[i] = line{Quantity: 1 + r.Int63n(1_000_000), Unit: bounded(r)}
			if r.Intn(3) == 0 {
				lines[i].Quantity = 1
			}
		}
		return []any{lines}
	}, func(lines []line) bool {
		exact, refused := new(big.Int), false
		amounts := make([]int64, len(lines))
		for i, l := range lines {
			n, ok := amount.Mul(l.Quantity, l.Unit)
			product := new(big.Int).Mul(big.NewInt(l.Quantity), big.NewInt(l.Unit))
			if !agrees(n, ok, product) {
				return false
			}
			refused = refused || !ok
			amounts[i] = n
			exact.Add(exact, product)
		}
		if refused {
			return true
		}
		total, ok := amount.Sum(amounts...)
		return agrees(total, ok, exact) && (!ok || new(big.Rat).SetInt(exact).Cmp(maxRat) <= 0)
	})
}
