package bench

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// clockYearMeasure is one clock's year: its advance through the API and
// the same statements replayed bare right after it.
type clockYearMeasure struct {
	subscriptions, renewals int
	// statements: the advance's count (X-Statement-Count);
	// stepStatements: those of its first renewal step.
	statements, stepStatements int
	api, bare                  time.Duration
}

// ratio is bare time over API time: the API's rate as a share of its
// statements' run bare (1.0 would be no overhead).
func (m clockYearMeasure) ratio() float64 { return m.bare.Seconds() / m.api.Seconds() }

// clocksPerLogLine keeps a run's per-clock log short: the testing package
// prints at most ten lines of a benchmark's log without -v.
const clocksPerLogLine = 10

// clockYearRun is the measures of a benchmark's clocks, in run order.
type clockYearRun struct{ chunks []clockYearMeasure }

// report logs each clock's API and bare time and their ratio, and
// reports the totals: the API's and the bare time per subscription-year
// (each clock's subscriptions advanced a year), bare over API summed over
// the clocks, that ratio's lowest,
// median and highest over the clocks, and the statements per renewal
// (the advances' own steps included) and per renewal step.
func (r clockYearRun) report(b *testing.B, perClock int) {
	var api, bare time.Duration
	var subscriptions, renewals, statements int
	ratios := make([]float64, 0, len(r.chunks))
	line := ""
	for i, m := range r.chunks {
		line += fmt.Sprintf(" %.2f/%.2fs=%.2f", m.api.Seconds(), m.bare.Seconds(), m.ratio())
		if (i+1)%clocksPerLogLine == 0 || i == len(r.chunks)-1 {
			b.Logf("clocks %d-%d, api/bare=ratio:%s", i/clocksPerLogLine*clocksPerLogLine+1, i+1, line)
			line = ""
		}
		api, bare = api+m.api, bare+m.bare
		subscriptions, renewals, statements = subscriptions+m.subscriptions, renewals+m.renewals, statements+m.statements
		ratios = append(ratios, m.ratio())
	}
	slices.Sort(ratios)
	b.ReportMetric(api.Seconds()/float64(subscriptions), "api-s/subscription-year")
	b.ReportMetric(bare.Seconds()/float64(subscriptions), "bare-s/subscription-year")
	b.ReportMetric(bare.Seconds()/api.Seconds(), "bare/api")
	b.ReportMetric(ratios[0], "bare/api-min")
	b.ReportMetric(ratios[len(ratios)/2], "bare/api-median")
	b.ReportMetric(ratios[len(ratios)-1], "bare/api-max")
	b.ReportMetric(float64(statements)/float64(renewals), "statements/renewal")
	b.ReportMetric(float64(r.chunks[0].stepStatements), "statements/renewal-step")
	b.ReportMetric(float64(perClock), "subscriptions/clock")
}
