package fees

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIncrementsAddUpToTheWholeCapture(t *testing.T) {
	card := &Item{Type: FlatPlusPercentage, FixedCents: 30, PPM: 29_000}
	for _, mode := range []Mode{Deduct, AddOn, Absorb} {
		for _, parts := range [][]int64{{1000}, {600, 400}, {333, 333, 334}, {25, 975}, {1, 999}} {
			var captured int64
			var prev, sum Quote
			for _, p := range parts {
				captured += p
				total, err := Compute(captured, mode, card, nil)
				if mode == Deduct && err != nil {
					require.ErrorIs(t, err, ErrFeesExceedAmount) // 1 cent cannot pay the fixed part
					break
				}
				require.NoError(t, err)
				inc := Increment(total, prev)
				require.Equal(t, p, inc.Amount)
				require.GreaterOrEqual(t, inc.NetAmount, int64(0), "a capture never takes from the payee")
				require.Equal(t, inc.TotalFees, inc.PlatformFee+inc.FrameFee)
				sum = Quote{Amount: sum.Amount + inc.Amount, PlatformFee: sum.PlatformFee + inc.PlatformFee,
					TotalFees: sum.TotalFees + inc.TotalFees, GrossAmount: sum.GrossAmount + inc.GrossAmount,
					NetAmount: sum.NetAmount + inc.NetAmount, MerchantFee: sum.MerchantFee + inc.MerchantFee}
				prev = total
			}
			if captured == 1000 {
				whole, err := Compute(1000, mode, card, nil)
				require.NoError(t, err)
				require.Equal(t, whole, sum, "mode %s, parts %v", mode, parts)
			}
		}
	}
}
