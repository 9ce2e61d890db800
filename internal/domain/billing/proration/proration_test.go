package proration

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// periodOf is the period of a monthly calendar anchored at anchor that
// contains t.
func periodOf(t *testing.T, anchor, instant string) calendar.Period {
	t.Helper()
	c, err := calendar.New(at(anchor), calendar.Interval{Unit: calendar.Month, Count: 1})
	require.NoError(t, err)
	return c.PeriodAt(at(instant))
}

// The worked example of docs/billing.md: $20.00 a month, upgraded to
// $50.00 ten and a half days into a 31-day period.
func TestMidPeriodUpgrade(t *testing.T) {
	t.Parallel()
	period := periodOf(t, "2026-01-15T00:00:00Z", "2026-03-25T12:00:00Z")
	require.Equal(t, at("2026-03-15T00:00:00Z"), period.Start)
	require.Equal(t, at("2026-04-15T00:00:00Z"), period.End)
	swap := Swap{Period: period, At: at("2026-03-25T12:00:00Z"), Charged: 2000, NewPrice: 5000, Behavior: CreateProrations}

	got, err := Prorate(swap)
	require.NoError(t, err)
	prop := Proportion{SecondsLeft: 1_771_200, SecondsInPeriod: 2_678_400}
	require.Equal(t, "1771200/2678400", prop.String())
	require.Equal(t, "41/62", prop.Rat().String())
	require.Equal(t, Result{
		Lines: []Line{
			// 2000 × 41/62 = 1322.58…
			{Kind: Credit, Amount: -1323, Start: swap.At, End: period.End, Proportion: prop},
			// 5000 × 41/62 = 3306.45…
			{Kind: Charge, Amount: 3306, Start: swap.At, End: period.End, Proportion: prop},
		},
		Total: 1983,
	}, got)

	swap.Behavior = AlwaysInvoice
	immediate, err := Prorate(swap)
	require.NoError(t, err)
	require.Equal(t, got, immediate, "the behaviours differ in when the lines are settled, not in the lines")

	swap.Behavior = None
	forfeited, err := Prorate(swap)
	require.NoError(t, err)
	require.Equal(t, Result{}, forfeited)
}

func TestDowngradeOwesTheCustomer(t *testing.T) {
	t.Parallel()
	period := periodOf(t, "2026-01-31T09:30:00Z", "2026-02-10T00:00:00Z")
	require.Equal(t, at("2026-01-31T09:30:00Z"), period.Start)
	require.Equal(t, at("2026-02-28T09:30:00Z"), period.End)
	// 21 of the 28 days left: three quarters.
	got, err := Prorate(Swap{Period: period, At: at("2026-02-07T09:30:00Z"), Charged: 5000, NewPrice: 2000, Behavior: AlwaysInvoice})
	require.NoError(t, err)
	require.Equal(t, int64(-3750), got.Lines[0].Amount)
	require.Equal(t, int64(1500), got.Lines[1].Amount)
	require.Equal(t, int64(-2250), got.Total)
	require.Equal(t, "3/4", got.Lines[0].Proportion.Rat().String())
}

// Exact halves go to the even minor unit: half of a 28-day February.
func TestHalvesRoundToEven(t *testing.T) {
	t.Parallel()
	period := periodOf(t, "2027-01-01T00:00:00Z", "2027-02-01T00:00:00Z")
	require.Equal(t, int64(28*86_400), period.Seconds())
	half := at("2027-02-15T00:00:00Z")
	for _, tc := range []struct{ amount, want int64 }{
		{1999, 1000}, // 999.5
		{2001, 1000}, // 1000.5
		{2003, 1002}, // 1001.5
		{1, 0},       // 0.5
		{3, 2},       // 1.5
		{2000, 1000},
	} {
		got, err := Prorate(Swap{Period: period, At: half, Charged: tc.amount, NewPrice: tc.amount, Behavior: CreateProrations})
		require.NoError(t, err)
		require.Equal(t, -tc.want, got.Lines[0].Amount, "credit of %d", tc.amount)
		require.Equal(t, tc.want, got.Lines[1].Amount, "charge of %d", tc.amount)
		require.Zero(t, got.Total)
	}
}

func TestSwapAtTheEdgesOfThePeriod(t *testing.T) {
	t.Parallel()
	period := periodOf(t, "2026-01-31T09:30:00Z", "2026-03-01T00:00:00Z")
	seconds := period.Seconds()

	first, err := Prorate(Swap{Period: period, At: period.Start, Charged: 1234, NewPrice: 4321, Behavior: CreateProrations})
	require.NoError(t, err)
	require.Equal(t, int64(-1234), first.Lines[0].Amount, "a swap in the first second credits everything")
	require.Equal(t, int64(4321), first.Lines[1].Amount)
	require.Equal(t, Proportion{seconds, seconds}, first.Lines[0].Proportion)

	last, err := Prorate(Swap{Period: period, At: period.End.Add(-time.Nanosecond), Charged: 1234, NewPrice: 4321, Behavior: CreateProrations})
	require.NoError(t, err)
	require.Equal(t, Proportion{1, seconds}, last.Lines[0].Proportion, "the last second started is used")
	require.Equal(t, period.End.Add(-time.Second), last.Lines[0].Start)
	require.Equal(t, int64(0), last.Lines[0].Amount)
	require.Equal(t, int64(0), last.Lines[1].Amount)
	require.Len(t, last.Lines, 2, "zero lines are kept: they show the window")

	// A started second is used: 10.7 s in, 10 s are used.
	mid, err := Prorate(Swap{Period: period, At: period.Start.Add(10_700 * time.Millisecond), Charged: 1, NewPrice: 1, Behavior: CreateProrations})
	require.NoError(t, err)
	require.Equal(t, period.Start.Add(10*time.Second), mid.Lines[1].Start)
	require.Equal(t, seconds-10, mid.Lines[1].Proportion.SecondsLeft)
}

func TestLargestAmountsAreExact(t *testing.T) {
	t.Parallel()
	period := periodOf(t, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z")
	got, err := Prorate(Swap{Period: period, At: period.Start.Add(time.Second), Charged: math.MaxInt64, NewPrice: math.MaxInt64, Behavior: CreateProrations})
	require.NoError(t, err)
	// MaxInt64 × 2 678 399 / 2 678 400 = 9 223 368 593 242 157 506.98…
	require.Equal(t, int64(-9_223_368_593_242_157_507), got.Lines[0].Amount)
	require.Equal(t, int64(9_223_368_593_242_157_507), got.Lines[1].Amount)
	require.Zero(t, got.Total)

	got, err = Prorate(Swap{Period: period, At: period.Start, Charged: math.MaxInt64, NewPrice: 0, Behavior: AlwaysInvoice})
	require.NoError(t, err)
	require.Equal(t, int64(-math.MaxInt64), got.Total)
}

func TestRefusesWhatCannotBePriced(t *testing.T) {
	t.Parallel()
	period := periodOf(t, "2026-01-31T09:30:00Z", "2026-02-10T00:00:00Z")
	ok := Swap{Period: period, At: at("2026-02-10T00:00:00Z"), Charged: 100, NewPrice: 200, Behavior: CreateProrations}
	_, err := Prorate(ok)
	require.NoError(t, err)
	for name, tc := range map[string]struct {
		change func(*Swap)
		want   error
	}{
		"unknown behaviour":   {func(s *Swap) { s.Behavior = "prorate_later" }, ErrUnknownBehavior},
		"empty behaviour":     {func(s *Swap) { s.Behavior = "" }, ErrUnknownBehavior},
		"negative charged":    {func(s *Swap) { s.Charged = -1 }, ErrNegativeAmount},
		"negative new price":  {func(s *Swap) { s.NewPrice = -1 }, ErrNegativeAmount},
		"at the period's end": {func(s *Swap) { s.At = period.End }, ErrOutsidePeriod},
		"before the start":    {func(s *Swap) { s.At = period.Start.Add(-time.Nanosecond) }, ErrOutsidePeriod},
		"empty period":        {func(s *Swap) { s.Period.End = s.Period.Start }, ErrInvalidPeriod},
		"reversed period":     {func(s *Swap) { s.Period.Start, s.Period.End = s.Period.End, s.Period.Start }, ErrInvalidPeriod},
		"fractional period":   {func(s *Swap) { s.Period.End = s.Period.End.Add(time.Millisecond) }, ErrInvalidPeriod},
		"none still checks":   {func(s *Swap) { s.Behavior, s.Charged = None, -5 }, ErrNegativeAmount},
	} {
		s := ok
		tc.change(&s)
		_, err := Prorate(s)
		require.ErrorIs(t, err, tc.want, name)
	}
}
