package phase

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func count(n int) *int { return &n }

func TestInForceRunsPhasesInOrdinalOrderForTheirPeriods(t *testing.T) {
	t.Parallel()
	phases := []Priced{
		{Ordinal: 20, Static: true, Amount: 900},                      // indefinite, last
		{Ordinal: 1, Static: true, Amount: 0, PeriodCount: count(1)},  // a free first period
		{Ordinal: 5, DiscountPercentage: "50", PeriodCount: count(2)}, // then two at half price
	}
	want := []int{1, 2, 2, 0, 0, 0}
	for n, w := range want {
		require.Equal(t, w, InForce(phases, n), "period %d", n)
	}
	finite := []Priced{{Ordinal: 1, Static: true, Amount: 1, PeriodCount: count(2)}}
	require.Equal(t, 0, InForce(finite, 1))
	require.Equal(t, -1, InForce(finite, 2), "after the last finite phase the product's price applies")
	require.Equal(t, -1, InForce(nil, 0))
}

func TestPriceOfARelativePhaseRoundsHalfToEven(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		price int64
		pct   string
		want  int64
	}{
		{2000, "50", 1000},
		{2000, "0", 2000},
		{2000, "100", 0},
		{1999, "50", 1000},   // 999.5 → 1000
		{2001, "50", 1000},   // 1000.5 → 1000
		{2003, "50", 1002},   // 1001.5 → 1002
		{1000, "33.33", 667}, // 666.7
		{1000, "12.5", 875},
	} {
		got, err := Priced{DiscountPercentage: tc.pct}.Price(tc.price)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%d less %s%%", tc.price, tc.pct)
	}
	got, err := Priced{Static: true, Amount: 1234}.Price(99999)
	require.NoError(t, err)
	require.EqualValues(t, 1234, got)
	_, err = Priced{DiscountPercentage: "101"}.Price(1)
	require.Error(t, err)
}
