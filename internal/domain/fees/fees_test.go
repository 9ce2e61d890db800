package fees

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The worked examples of docs/payments.md: 2.9 % + 30 on $10.00.
var card = Item{Type: FlatPlusPercentage, FixedCents: 30, PPM: 29_000}

func TestItemFeeEveryTypeAtEdgeAmounts(t *testing.T) {
	flat := Item{Type: Flat, FixedCents: 30, PPM: 29_000}      // the percentage is ignored
	pct := Item{Type: Percentage, FixedCents: 30, PPM: 29_000} // the fixed part is ignored
	half := Item{Type: Percentage, PPM: 500_000}               // 50 %
	full := Item{Type: Percentage, PPM: PPMScale}              // 100 %
	tiny := Item{Type: Percentage, PPM: 1}                     // 0.0001 %
	cases := []struct {
		name   string
		item   Item
		amount int64
		want   int64
	}{
		{"flat on 0", flat, 0, 30},
		{"flat on 1", flat, 1, 30},
		{"flat on max", flat, math.MaxInt64, 30},
		{"percentage on 0", pct, 0, 0},
		{"percentage on 1 rounds 0.029 down", pct, 1, 0},
		{"percentage on 17 rounds 0.493 down", pct, 17, 0},
		{"percentage on 18 rounds 0.522 up", pct, 18, 1},
		{"percentage on 1000", pct, 1000, 29},
		{"percentage on 1017 rounds 29.493 down", pct, 1017, 29},
		{"percentage on 1018 rounds 29.522 up", pct, 1018, 30},
		{"half rounds an exact half up", half, 1, 1},
		{"half of 3 is 1.5, up", half, 3, 2},
		{"half of 4", half, 4, 2},
		{"100 % of max is exact", full, math.MaxInt64, math.MaxInt64},
		{"tiny of 499999 rounds down", tiny, 499_999, 0},
		{"tiny of 500000 is a half, up", tiny, 500_000, 1},
		// 9 223 372 036 854 775 807 × 0.029 = 267 477 789 068 788 498.403
		{"percentage on max is exact", pct, math.MaxInt64, 267_477_789_068_788_498},
		{"flat+percentage on 0", card, 0, 30},
		{"flat+percentage on 1", card, 1, 30},
		{"flat+percentage on 1000", card, 1000, 59},
		{"flat+percentage on 1018", card, 1018, 60},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.item.Fee(c.amount)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
}

func TestItemFeeRefusesWhatCannotBePriced(t *testing.T) {
	_, err := card.Fee(-1)
	require.ErrorIs(t, err, ErrNegativeAmount)
	for _, it := range []Item{{Type: "tiered"}, {Type: Flat, FixedCents: -1}, {Type: Percentage, PPM: -1},
		{Type: Percentage, PPM: PPMScale + 1}} {
		_, err := it.Fee(100)
		require.ErrorIs(t, err, ErrInvalidItem, "%+v", it)
	}
	_, err = Item{Type: FlatPlusPercentage, FixedCents: math.MaxInt64, PPM: 10}.Fee(1_000_000)
	require.ErrorIs(t, err, ErrOverflow)
}

// Every mode × item type × edge amount: the quote's identities hold and its
// members are what the mode says.
func TestComputeEveryModeTypeAndEdgeAmount(t *testing.T) {
	items := map[string]*Item{
		"none":                 nil,
		"flat":                 {Type: Flat, FixedCents: 30},
		"percentage":           {Type: Percentage, PPM: 29_000},
		"flat_plus_percentage": &card,
	}
	frame := &Item{Type: Percentage, PPM: 5_000} // 0.5 %
	amounts := []int64{0, 1, 17, 18, 29, 30, 31, 1000, 1018, 999_999_999, math.MaxInt64 / 2}
	for _, mode := range []Mode{Deduct, AddOn, Absorb} {
		for name, item := range items {
			for _, amount := range amounts {
				for _, fr := range []*Item{nil, frame} {
					q, err := Compute(amount, mode, item, fr)
					var pf, ff int64
					if item != nil {
						pf, _ = item.Fee(amount)
					}
					if fr != nil {
						ff, _ = fr.Fee(amount)
					}
					if mode == Deduct && pf+ff > amount {
						require.ErrorIs(t, err, ErrFeesExceedAmount, "%s %s %d", mode, name, amount)
						continue
					}
					require.NoError(t, err, "%s %s %d", mode, name, amount)
					require.Equal(t, pf, q.PlatformFee)
					require.Equal(t, ff, q.FrameFee)
					require.Equal(t, q.PlatformFee+q.FrameFee, q.TotalFees)
					require.Equal(t, amount, q.Amount)
					switch mode {
					case Deduct:
						require.Equal(t, amount, q.GrossAmount)
						require.Equal(t, amount-q.TotalFees, q.NetAmount)
						require.Zero(t, q.MerchantFee)
					case AddOn:
						require.Equal(t, amount+q.TotalFees, q.GrossAmount)
						require.Equal(t, amount, q.NetAmount)
						require.Zero(t, q.MerchantFee)
					case Absorb:
						require.Equal(t, amount, q.GrossAmount)
						require.Equal(t, amount, q.NetAmount)
						require.Equal(t, q.TotalFees, q.MerchantFee)
					}
					// Money is conserved: what the buyer pays is what the payee,
					// the fees and the merchant's contribution account for.
					require.Equal(t, q.GrossAmount+q.MerchantFee, q.NetAmount+q.TotalFees)
				}
			}
		}
	}
}

func TestComputeWorkedExamples(t *testing.T) {
	q, err := Compute(1000, Deduct, &card, nil)
	require.NoError(t, err)
	require.Equal(t, Quote{Amount: 1000, PlatformFee: 59, TotalFees: 59, GrossAmount: 1000, NetAmount: 941}, q)
	q, err = Compute(1000, AddOn, &card, nil)
	require.NoError(t, err)
	require.Equal(t, Quote{Amount: 1000, PlatformFee: 59, TotalFees: 59, GrossAmount: 1059, NetAmount: 1000}, q)
	q, err = Compute(1000, Absorb, &card, nil)
	require.NoError(t, err)
	require.Equal(t, Quote{Amount: 1000, PlatformFee: 59, TotalFees: 59, GrossAmount: 1000, NetAmount: 1000, MerchantFee: 59}, q)
}

func TestComputeRefusesBadInput(t *testing.T) {
	_, err := Compute(-1, Deduct, nil, nil)
	require.ErrorIs(t, err, ErrNegativeAmount)
	_, err = Compute(10, "split", nil, nil)
	require.ErrorIs(t, err, ErrUnknownMode)
	_, err = Compute(math.MaxInt64, AddOn, &Item{Type: Flat, FixedCents: 1}, nil)
	require.ErrorIs(t, err, ErrOverflow)
	big := &Item{Type: Flat, FixedCents: math.MaxInt64}
	_, err = Compute(1, Absorb, big, big)
	require.ErrorIs(t, err, ErrOverflow)
}

func TestPercentageRoundTrip(t *testing.T) {
	good := map[string]int64{"0": 0, "2.9": 29_000, "2.90": 29_000, "0.25": 2_500, "100": PPMScale, "0.0001": 1,
		"12.3456": 123_456, "100.0000": PPMScale}
	for s, want := range good {
		got, err := ParsePercentage(s)
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "-1", "+1", "100.0001", "101", "1.23456", "abc", ".5", "1e2", "1.-2", "1000"} {
		_, err := ParsePercentage(s)
		require.ErrorIs(t, err, ErrInvalidPercentage, s)
	}
	for s, ppm := range map[string]int64{"0": 0, "2.9": 29_000, "0.25": 2_500, "100": PPMScale, "0.0001": 1, "12.3456": 123_456} {
		require.Equal(t, s, FormatPercentage(ppm))
	}
}
