// Package discount holds the arithmetic of coupons and promotion codes:
// what one coupon takes off an amount (percentage or fixed, capped), and
// how several stack on one order.
package discount

// Coupon is what the arithmetic needs of a coupon.
type Coupon struct {
	// Percentage coupons take Value basis points (1/100 of a percent) off;
	// fixed ones take Value minor units off.
	Percentage bool
	Value      int64
	// Cap bounds what the coupon takes off (minor units), when set.
	Cap *int64
}

// Off is what c takes off base (minor units): a percentage rounds down to
// the minor unit; nothing takes off more than the cap or than base itself.
func Off(c Coupon, base int64) int64 {
	if base <= 0 || c.Value <= 0 {
		return 0
	}
	var off int64
	if c.Percentage {
		// base * value / 10000 without overflow for any realistic base.
		off = base / 10000 * c.Value
		off += base % 10000 * c.Value / 10000
	} else {
		off = c.Value
	}
	if c.Cap != nil && off > *c.Cap {
		off = *c.Cap
	}
	if off > base {
		off = base
	}
	return off
}

// Stack applies coupons to amount in order, each to what the ones before
// it left: it answers what each takes off and the total. The total never
// exceeds amount.
func Stack(amount int64, coupons []Coupon) (each []int64, total int64) {
	each = make([]int64, len(coupons))
	remaining := amount
	for i, c := range coupons {
		each[i] = Off(c, remaining)
		remaining -= each[i]
		total += each[i]
	}
	return each, total
}
