package discount

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func ptr(v int64) *int64 { return &v }

func TestOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		c    Coupon
		base int64
		want int64
	}{
		{"10 percent", Coupon{Percentage: true, Value: 1000}, 2500, 250},
		{"rounds down", Coupon{Percentage: true, Value: 1250}, 999, 124},
		{"100 percent", Coupon{Percentage: true, Value: 10000}, 999, 999},
		{"zero percent", Coupon{Percentage: true, Value: 0}, 999, 0},
		{"capped", Coupon{Percentage: true, Value: 5000, Cap: ptr(300)}, 2000, 300},
		{"fixed", Coupon{Value: 500}, 2000, 500},
		{"fixed above the amount", Coupon{Value: 5000}, 2000, 2000},
		{"fixed capped", Coupon{Value: 500, Cap: ptr(100)}, 2000, 100},
		{"nothing to discount", Coupon{Value: 500}, 0, 0},
		{"huge amount", Coupon{Percentage: true, Value: 3333}, 9_000_000_000_000_000, 2_999_700_000_000_000},
	} {
		require.Equal(t, tc.want, Off(tc.c, tc.base), tc.name)
	}
}

func TestStack(t *testing.T) {
	t.Parallel()
	each, total := Stack(10000, []Coupon{{Value: 1000}, {Percentage: true, Value: 5000}, {Value: 99999}})
	require.Equal(t, []int64{1000, 4500, 4500}, each, "each applies to what the ones before left")
	require.Equal(t, int64(10000), total, "never more than the amount")
	each, total = Stack(10000, nil)
	require.Empty(t, each)
	require.Zero(t, total)
}
