package usage

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

func ev(value, markup string) Event {
	e := Event{Value: rat(value)}
	if markup != "" {
		e.Markup = rat(markup)
	}
	return e
}

func TestAggregate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name            string
		agg             Aggregation
		events          []Event
		usage, weighted string
	}{
		{"sum without markup", Sum, []Event{ev("2", ""), ev("3.5", "")}, "5.5", "5.5"},
		{"sum with markups", Sum, []Event{ev("10", "50"), ev("4", "")}, "14", "19"},
		{"count weighs each event", Count, []Event{ev("7", "10"), ev("0", ""), ev("3", "")}, "3", "3.1"},
		{"max keeps the largest", Max, []Event{ev("2", "100"), ev("9", "20"), ev("4", "")}, "9", "10.8"},
		{"max tie keeps the earliest", Max, []Event{ev("5", "10"), ev("5", "50")}, "5", "5.5"},
		{"no events", Sum, nil, "0", "0"},
		{"max of none", Max, nil, "0", "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Aggregate(c.agg, c.events)
			require.Zero(t, got.Usage.Cmp(rat(c.usage)), "usage %s", got.Usage.RatString())
			require.Zero(t, got.Weighted.Cmp(rat(c.weighted)), "weighted %s", got.Weighted.RatString())
		})
	}
}

func TestAmount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                     string
		price                    int64
		usage, weighted, credits string
		limited                  bool
		want                     int64
	}{
		{"no credits", 3, "10", "10", "0", false, 30},
		{"markup raises the price", 100, "14", "19", "0", false, 1900},
		{"credits cover a share", 100, "10", "12", "4", false, 720},
		{"credits cover everything", 100, "10", "12", "10", false, 0},
		{"limited pool caps what is left", 100, "10", "10", "4", true, 0},
		{"half a cent rounds up", 1, "1", "2.5", "0", false, 3},
		{"just under half rounds down", 1, "1", "2.4999", "0", false, 2},
		{"fractional usage", 7, "0.3", "0.3", "0.1", false, 1},
		{"zero usage", 500, "0", "0", "0", false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tot := Totals{Usage: rat(c.usage), Weighted: rat(c.weighted)}
			got, ok := Amount(c.price, tot, Charged(tot.Usage, rat(c.credits), c.limited))
			require.True(t, ok)
			require.Equal(t, c.want, got)
		})
	}
}

func TestTake(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		pools     []string
		need      string
		taken     []string
		total     string
		remaining []string
	}{
		{"first pool suffices", []string{"10", "5"}, "4", []string{"4", "0"}, "4", []string{"6", "5"}},
		{"spills into the next", []string{"3", "5"}, "6", []string{"3", "3"}, "6", []string{"0", "2"}},
		{"pools run short", []string{"1", "2"}, "7.5", []string{"1", "2"}, "3", []string{"0", "0"}},
		{"empty pool skipped", []string{"0", "2"}, "1", []string{"0", "1"}, "1", []string{"0", "1"}},
		{"nothing needed", []string{"4"}, "0", []string{"0"}, "0", []string{"4"}},
		{"fractions", []string{"1"}, "0.25", []string{"0.25"}, "0.25", []string{"0.75"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pools := make([]Pool, len(c.pools))
			for i, p := range c.pools {
				pools[i] = Pool{Available: rat(p)}
			}
			taken, total := Take(pools, rat(c.need))
			require.Zero(t, total.Cmp(rat(c.total)))
			for i := range pools {
				require.Zero(t, taken[i].Cmp(rat(c.taken[i])), "taken %d", i)
				require.Zero(t, pools[i].Available.Cmp(rat(c.remaining[i])), "remaining %d", i)
			}
		})
	}
}

func TestPercentage(t *testing.T) {
	t.Parallel()
	require.Equal(t, 0.0, Percentage(5, 0))
	require.Equal(t, 50.0, Percentage(500, 1000))
	require.Equal(t, 33.33, Percentage(1, 3))
	require.Equal(t, 66.67, Percentage(2, 3))
	require.Equal(t, 120.0, Percentage(1200, 1000))
}
