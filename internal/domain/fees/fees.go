// Package fees prices a transfer: the fee of a plan item on an amount, and
// how the fee application mode turns fees into the amounts a buyer pays and
// a payee receives. Pure integer arithmetic in minor units; no floats.
//
// Rounding rule: the percentage part of a fee is amount × percentage,
// rounded to the nearest minor unit with halves rounded up (away from
// zero; amounts are never negative). Each fee (the platform's and the
// service's) is rounded on its own and total_fees is their exact sum, so
// platform_fee + frame_fee = total_fees always. Fees are computed on the
// transfer's amount in every mode.
package fees

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Type is how an item prices a transfer.
type Type string

// Item types (API-DECISIONS §4).
const (
	Flat               Type = "flat"
	Percentage         Type = "percentage"
	FlatPlusPercentage Type = "flat_plus_percentage"
)

// Mode is who bears the fees.
type Mode string

// Fee application modes (API-DECISIONS §4).
const (
	// Deduct: the payee nets amount − fees; the buyer pays amount.
	Deduct Mode = "deduct"
	// AddOn: the buyer pays amount + fees (gross_amount); the payee nets amount.
	AddOn Mode = "add_on"
	// Absorb: the buyer pays amount, the payee nets amount, and the
	// merchant pays the fees from its own balance.
	Absorb Mode = "absorb"
)

// PPMScale is one hundred percent in parts per million: percentages are
// held as parts per million of the amount (2.9 % = 29 000), which keeps
// four decimals of a percentage exact.
const PPMScale = 1_000_000

// Item is one priced fee: a fixed part in minor units and a percentage in
// parts per million, used as its Type says.
type Item struct {
	Type       Type
	FixedCents int64
	PPM        int64
}

// Errors of the arithmetic.
var (
	ErrNegativeAmount    = errors.New("fees: amount is negative")
	ErrInvalidItem       = errors.New("fees: invalid item")
	ErrOverflow          = errors.New("fees: amount too large")
	ErrFeesExceedAmount  = errors.New("fees: fees exceed the amount")
	ErrUnknownMode       = errors.New("fees: unknown fee application mode")
	ErrInvalidPercentage = errors.New("fees: invalid percentage")
)

// Validate checks an item: a known type, parts its type uses within
// bounds (fixed ≥ 0, percentage from 0 to 100 %).
func (it Item) Validate() error {
	switch it.Type {
	case Flat, Percentage, FlatPlusPercentage:
	default:
		return ErrInvalidItem
	}
	if it.FixedCents < 0 || it.PPM < 0 || it.PPM > PPMScale {
		return ErrInvalidItem
	}
	return nil
}

// Fee is item's fee on amount, by the package's rounding rule.
func (it Item) Fee(amount int64) (int64, error) {
	if amount < 0 {
		return 0, ErrNegativeAmount
	}
	if err := it.Validate(); err != nil {
		return 0, err
	}
	var fixed, pct int64
	if it.Type != Percentage {
		fixed = it.FixedCents
	}
	if it.Type != Flat {
		pct = percentOf(amount, it.PPM)
	}
	if fixed > math.MaxInt64-pct {
		return 0, ErrOverflow
	}
	return fixed + pct, nil
}

// percentOf is amount × ppm / 1 000 000 rounded half up, exact for every
// int64 amount (the product is held in 128 bits).
func percentOf(amount, ppm int64) int64 {
	hi, lo := bits.Mul64(uint64(amount), uint64(ppm))
	lo, carry := bits.Add64(lo, PPMScale/2, 0)
	hi += carry
	q, _ := bits.Div64(hi, lo, PPMScale) // hi < PPMScale: amount < 2^63, ppm ≤ 10^6
	return int64(q)                      // ≤ amount + 1 when ppm ≤ 100 %, which fits
}

// Quote is what a transfer of Amount costs and yields.
type Quote struct {
	Amount      int64
	PlatformFee int64 // the plan's fee, earned by the platform
	FrameFee    int64 // the service's processing fee
	TotalFees   int64 // PlatformFee + FrameFee
	GrossAmount int64 // what the buyer pays
	NetAmount   int64 // what the payee receives
	// MerchantFee is what the merchant pays from its balance (absorb:
	// the fees; otherwise 0).
	MerchantFee int64
}

// Compute prices amount under mode with the platform's item and the
// service's item (either may be nil: no fee).
//
//	deduct:  gross = amount,        net = amount − fees (fees may not exceed amount)
//	add_on:  gross = amount + fees, net = amount
//	absorb:  gross = amount,        net = amount, the merchant pays the fees
func Compute(amount int64, mode Mode, platform, frame *Item) (Quote, error) {
	if amount < 0 {
		return Quote{}, ErrNegativeAmount
	}
	q := Quote{Amount: amount}
	var err error
	if platform != nil {
		if q.PlatformFee, err = platform.Fee(amount); err != nil {
			return Quote{}, err
		}
	}
	if frame != nil {
		if q.FrameFee, err = frame.Fee(amount); err != nil {
			return Quote{}, err
		}
	}
	if q.PlatformFee > math.MaxInt64-q.FrameFee {
		return Quote{}, ErrOverflow
	}
	q.TotalFees = q.PlatformFee + q.FrameFee
	switch mode {
	case Deduct:
		if q.TotalFees > amount {
			return Quote{}, ErrFeesExceedAmount
		}
		q.GrossAmount, q.NetAmount = amount, amount-q.TotalFees
	case AddOn:
		if amount > math.MaxInt64-q.TotalFees {
			return Quote{}, ErrOverflow
		}
		q.GrossAmount, q.NetAmount = amount+q.TotalFees, amount
	case Absorb:
		q.GrossAmount, q.NetAmount, q.MerchantFee = amount, amount, q.TotalFees
	default:
		return Quote{}, ErrUnknownMode
	}
	return q, nil
}

// ParsePercentage reads a percentage written in decimal ("2.9", "0.25",
// "100") with at most four decimals, from 0 to 100, as parts per million.
func ParsePercentage(s string) (int64, error) {
	s = strings.TrimSpace(s)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 3 || len(frac) > 4 || strings.HasPrefix(whole, "+") || strings.HasPrefix(whole, "-") {
		return 0, ErrInvalidPercentage
	}
	w, err := strconv.ParseUint(whole, 10, 16)
	if err != nil {
		return 0, ErrInvalidPercentage
	}
	var f uint64
	if frac != "" {
		if f, err = strconv.ParseUint(frac+strings.Repeat("0", 4-len(frac)), 10, 16); err != nil {
			return 0, ErrInvalidPercentage
		}
	}
	ppm := int64(w)*10_000 + int64(f)
	if ppm > PPMScale {
		return 0, ErrInvalidPercentage
	}
	return ppm, nil
}

// FormatPercentage writes parts per million as the shortest decimal
// percentage ("2.9", "0.25", "100", "0").
func FormatPercentage(ppm int64) string {
	whole, frac := ppm/10_000, ppm%10_000
	if frac == 0 {
		return strconv.FormatInt(whole, 10)
	}
	f := strings.TrimRight(strconv.FormatInt(10_000+frac, 10)[1:], "0")
	return strconv.FormatInt(whole, 10) + "." + f
}
