package rest_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var (
	usageReportKeys = sorted("object", "aggregated_usage", "customer", "account", "account_id", "usage",
		"period_start", "period_end", "livemode", "data")
	eventUsageKeys = sorted("event_name", "meter_id", "aggregation", "product", "usage", "event_count",
		"billed_usage", "unbilled_usage", "billed_event_count", "unbilled_event_count")
	eventReportKeys = sorted("object", "aggregation", "event_name", "usage", "event_count", "billing_metric",
		"customer", "account", "account_id", "period_start", "period_end", "livemode", "data")
)

const reportPath = "/v1/billing/report/"

// reportQuery renders query parameters.
func reportQuery(kv ...string) string {
	v := url.Values{}
	for i := 0; i < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return "?" + v.Encode()
}

// getReport requires 200 and answers the report.
func getReport(t *testing.T, c *testenv.Client, path string) map[string]any {
	t.Helper()
	r := c.Get(path)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return r.JSON()
}

// usageOf finds the element of aggregated_usage named name.
func usageOf(t *testing.T, report map[string]any, name string) map[string]any {
	t.Helper()
	for _, e := range report["aggregated_usage"].([]any) {
		if m := e.(map[string]any); m["event_name"] == name {
			require.Equal(t, eventUsageKeys, keys(m))
			return m
		}
	}
	t.Fatalf("no usage of %s in %s", name, jsonString(report))
	return nil
}

// record reports an event of value at ts for the customer.
func record(c *testenv.Client, name, ref, customer, value, ts string) {
	c.CreateMeteringEvent(testenv.MeteringEvent(name, ref, customer).WithValue(value).At(ts))
}

func TestCustomerUsageReportAggregatesPerMeter(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	f.sk.PriceMeter("requests", "", "count")
	f.sk.PriceMeter("peak.gb", "", "max")
	for i, v := range []string{"1.5", "2.25", "4"} {
		record(f.sk, "tokens", "t"+string(rune('a'+i)), cu, v, "2026-01-05T10:00:0"+string(rune('0'+i))+"Z")
		record(f.sk, "requests", "r"+string(rune('a'+i)), cu, v, "2026-01-05T10:00:00Z")
		record(f.sk, "peak.gb", "p"+string(rune('a'+i)), cu, v, "2026-01-06T00:00:00Z")
	}
	record(f.sk, "tokens", "outside", cu, "100", "2025-12-31T23:59:59Z")

	r := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", cu, "from", "2026-01-01T00:00:00Z", "to", "2026-02-01T00:00:00Z"))
	require.Equal(t, usageReportKeys, keys(r))
	require.Equal(t, r["aggregated_usage"], r["data"], "the Node SDK reads a report's rows from data")
	require.Equal(t, "usage_report", r["object"])
	require.Equal(t, cu, r["customer"])
	require.Nil(t, r["account"])
	require.Nil(t, r["account_id"])
	require.Equal(t, false, r["livemode"])
	require.Equal(t, "2026-01-01T00:00:00Z", r["period_start"])
	require.Equal(t, "2026-02-01T00:00:00Z", r["period_end"])
	names := []string{}
	for _, e := range r["aggregated_usage"].([]any) {
		names = append(names, e.(map[string]any)["event_name"].(string))
	}
	require.Equal(t, []string{"peak.gb", "requests", "tokens"}, names, "in event name order")

	tokens := usageOf(t, r, "tokens")
	require.Equal(t, "sum", tokens["aggregation"])
	require.Equal(t, "7.75", tokens["usage"])
	require.Equal(t, float64(3), tokens["event_count"])
	require.Equal(t, "0", tokens["billed_usage"])
	require.Equal(t, "7.75", tokens["unbilled_usage"])
	require.Nil(t, tokens["product"])
	require.NotEmpty(t, tokens["meter_id"])
	requests := usageOf(t, r, "requests")
	require.Equal(t, "count", requests["aggregation"])
	require.Equal(t, "3", requests["usage"])
	peak := usageOf(t, r, "peak.gb")
	require.Equal(t, "max", peak["aggregation"])
	require.Equal(t, "4", peak["usage"])
	require.Equal(t, "14.75", r["usage"], "the sum of the elements' usage")

	// Same window as Unix seconds and as dates.
	unix := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", cu, "from", "1767225600", "to", "2026-02-01"))
	require.Equal(t, r, unix)
}

func TestUsageReportWindowIsHalfOpenToTheSecond(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	record(f.sk, "calls", "at-from", cu, "1", "2026-01-10T00:00:00Z")
	record(f.sk, "calls", "last-second", cu, "2", "2026-01-10T23:59:59Z")
	record(f.sk, "calls", "at-to", cu, "4", "2026-01-11T00:00:00Z")
	record(f.sk, "calls", "before-from", cu, "8", "2026-01-09T23:59:59Z")
	q := func(from, to string) string {
		r := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", cu, "from", from, "to", to))
		return r["usage"].(string)
	}
	require.Equal(t, "3", q("2026-01-10T00:00:00Z", "2026-01-11T00:00:00Z"))
	require.Equal(t, "1", q("2026-01-10T00:00:00Z", "2026-01-10T00:00:01Z"))
	require.Equal(t, "4", q("2026-01-11T00:00:00Z", "2026-01-11T00:00:01Z"))
	require.Equal(t, "0", q("2026-01-10T00:00:01Z", "2026-01-10T23:59:59Z"))
	require.Equal(t, "15", q("2026-01-09T23:59:59Z", "2026-01-11T00:00:01Z"))
	empty := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", cu, "from", "2025-01-01", "to", "2025-02-01"))
	require.Equal(t, []any{}, empty["aggregated_usage"])
	require.Equal(t, "0", empty["usage"])
}

func TestUsageReportReadsTheEventJustWritten(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	path := reportPath + "customer" + reportQuery("customer", cu, "from", "2026-01-01", "to", "2026-02-01")
	require.Equal(t, "0", getReport(t, f.sk, path)["usage"])
	for i, want := range []string{"2", "4", "6"} {
		record(f.sk, "calls", "ref-"+want, cu, "2", "")
		r := getReport(t, f.sk, path)
		require.Equal(t, want, r["usage"], "after event %d", i+1)
	}
	ev := f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "fix", cu).WithValue("1"))
	require.Equal(t, http.StatusOK, f.sk.Patch(meteringEventsPath+"/"+id(ev), map[string]any{"value": 10}).Status)
	require.Equal(t, "16", getReport(t, f.sk, path)["usage"], "a correction is read at once")
}

func TestUsageReportSplitsBilledUsage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	inv := id(f.sk.CreateInvoice(p.Invoice("request_payment", 1)))
	f.sk.PriceMeter("peak", "", "max")
	var billed []string
	for i, v := range []string{"5", "3", "9", "2"} {
		ev := f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "c"+v, id(p.Customer)).WithValue(v).At("2026-01-05T00:00:00Z"))
		pk := f.sk.CreateMeteringEvent(testenv.MeteringEvent("peak", "p"+v, id(p.Customer)).WithValue(v).At("2026-01-05T00:00:00Z"))
		if i < 2 {
			billed = append(billed, id(ev), id(pk))
		}
	}
	for _, ev := range billed {
		f.exec(t, "UPDATE metering_events SET invoice_id = ? WHERE id = ?", inv, ev)
	}
	r := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", id(p.Customer), "from", "2026-01-01", "to", "2026-02-01"))
	calls := usageOf(t, r, "calls")
	require.Equal(t, "19", calls["usage"])
	require.Equal(t, "8", calls["billed_usage"])
	require.Equal(t, "11", calls["unbilled_usage"])
	require.Equal(t, float64(2), calls["billed_event_count"])
	require.Equal(t, float64(2), calls["unbilled_event_count"])
	peak := usageOf(t, r, "peak")
	require.Equal(t, "9", peak["usage"])
	require.Equal(t, "5", peak["billed_usage"], "max of the billed events")
	require.Equal(t, "9", peak["unbilled_usage"], "max of the unbilled events")
}

func TestAccountUsageReport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := id(f.sk.CreateAccount(testenv.Individual()))
	f.sk.CreateMeteringEvent(testenv.MeteringEventSpec{EventName: "calls", Reference: "a1", Account: acct, Value: "3",
		Timestamp: "2026-01-02T00:00:00Z"})
	r := getReport(t, f.sk, reportPath+"customer"+reportQuery("account", acct, "from", "2026-01-01", "to", "2026-02-01"))
	require.Equal(t, usageReportKeys, keys(r))
	require.Nil(t, r["customer"])
	require.Equal(t, acct, r["account"])
	require.Equal(t, acct, r["account_id"])
	require.Equal(t, "3", r["usage"])
}

func TestCustomerUsageReportRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	acct := id(f.sk.CreateAccount(testenv.Individual()))
	path := reportPath + "customer"

	errs := requireValidation(t, f.sk.Get(path), "from", "to", "customer")
	requireProblem(t, errs, "from", "is required")
	requireValidation(t, f.sk.Get(path+reportQuery("customer", cu, "account", acct, "from", "2026-01-01", "to", "2026-02-01")), "customer")
	errs = requireValidation(t, f.sk.Get(path+reportQuery("customer", cu, "from", "2026-02-01", "to", "2026-01-01")), "to")
	requireProblem(t, errs, "to", "must be after from")
	requireValidation(t, f.sk.Get(path+reportQuery("customer", cu, "from", "2026-01-01", "to", "2026-01-01")), "to")
	requireValidation(t, f.sk.Get(path+reportQuery("from", "yesterday", "to", "2026-13-01T00:00:00Z")), "from", "to", "customer")
	requireValidation(t, f.sk.Get(path+reportQuery("customer", "nope", "from", "2026-01-01", "to", "2026-02-01")), "customer")
	requireValidation(t, f.sk.Get(path+reportQuery("account", cu, "from", "2026-01-01", "to", "2026-02-01")), "account")

	// Another merchant's customer and account are not this merchant's.
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireValidation(t, other.Get(path+reportQuery("customer", cu, "from", "2026-01-01", "to", "2026-02-01")), "customer")
	requireValidation(t, other.Get(path+reportQuery("account", acct, "from", "2026-01-01", "to", "2026-02-01")), "account")
	// Nor is the sandbox's customer the production mode's.
	requireValidation(t, f.live.Get(path+reportQuery("customer", cu, "from", "2026-01-01", "to", "2026-02-01")), "customer")

	for _, p := range []string{"customer", "event/calls", "events", "subscription"} {
		requireError(t, f.pk.Get(reportPath+p+reportQuery("customer", cu, "from", "2026-01-01",
			"to", "2026-02-01", "start_date", "2026-01-01", "end_date", "2026-02-01", "events", "calls")),
			http.StatusForbidden, "forbidden", "")
	}
}

func TestUsageReportsInProductionMode(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.live.CreateCustomer(testenv.Customer()))
	record(f.live, "calls", "live-1", cu, "7", "2026-01-03T00:00:00Z")
	r := getReport(t, f.live, reportPath+"customer"+reportQuery("customer", cu, "from", "2026-01-01", "to", "2026-02-01"))
	require.Equal(t, true, r["livemode"])
	require.Equal(t, "7", r["usage"])
	all := getReport(t, f.sk, reportPath+"event/calls"+reportQuery("start_date", "2026-01-01", "end_date", "2026-02-01"))
	require.Equal(t, "0", all["usage"], "the sandbox sees none of production's usage")
	require.Nil(t, all["billing_metric"])
}

func TestEventReport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := id(f.sk.CreateCustomer(testenv.Customer()))
	b := id(f.sk.CreateCustomer(testenv.Customer()))
	acct := id(f.sk.CreateAccount(testenv.Individual()))
	meter := f.sk.PriceMeter("gb", "", "max")
	record(f.sk, "gb", "a1", a, "3", "2026-01-02T00:00:00Z")
	record(f.sk, "gb", "a2", a, "5", "2026-01-03T00:00:00Z")
	record(f.sk, "gb", "b1", b, "8", "2026-01-03T00:00:00Z")
	f.sk.CreateMeteringEvent(testenv.MeteringEventSpec{EventName: "gb", Reference: "acct", Account: acct, Value: "6",
		Timestamp: "2026-01-04T00:00:00Z"})
	record(f.sk, "other", "o1", a, "99", "2026-01-03T00:00:00Z")
	window := []string{"start_date", "2026-01-01T00:00:00Z", "end_date", "2026-02-01T00:00:00Z"}

	r := getReport(t, f.sk, reportPath+"event/gb"+reportQuery(append([]string{"customer", a}, window...)...))
	require.Equal(t, eventReportKeys, keys(r))
	require.Len(t, r["data"], 1, "the event name's row, as a usage report lists it")
	require.Equal(t, "gb", r["data"].([]any)[0].(map[string]any)["event_name"])
	require.Equal(t, "billing_report", r["object"])
	require.Equal(t, "max", r["aggregation"])
	require.Equal(t, "gb", r["event_name"])
	require.Equal(t, "5", r["usage"], jsonString(r))
	require.Equal(t, float64(2), r["event_count"])
	require.Equal(t, meter.ID.String(), r["billing_metric"])
	require.Equal(t, a, r["customer"])
	require.Nil(t, r["account"])
	require.Equal(t, false, r["livemode"])

	all := getReport(t, f.sk, reportPath+"event/gb"+reportQuery(window...))
	require.Equal(t, "8", all["usage"], "every payer's events")
	require.Equal(t, float64(4), all["event_count"])
	require.Nil(t, all["customer"])
	require.Nil(t, all["account"])

	byAccount := getReport(t, f.sk, reportPath+"event/gb"+reportQuery(append([]string{"account", acct}, window...)...))
	require.Equal(t, "6", byAccount["usage"])
	require.Equal(t, acct, byAccount["account_id"])

	none := getReport(t, f.sk, reportPath+"event/never.used"+reportQuery(window...))
	require.Equal(t, "0", none["usage"])
	require.Equal(t, "sum", none["aggregation"])
	require.Nil(t, none["billing_metric"])
	require.Equal(t, float64(0), none["event_count"])

	errs := requireValidation(t, f.sk.Get(reportPath+"event/gb"), "start_date", "end_date")
	requireProblem(t, errs, "end_date", "is required")
	requireValidation(t, f.sk.Get(reportPath+"event/gb"+reportQuery("start_date", "2026-02-01", "end_date", "2026-01-01")), "end_date")
	requireValidation(t, f.sk.Get(reportPath+"event/bad%20name"+reportQuery(window...)), "event_name")
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireValidation(t, other.Get(reportPath+"event/gb"+reportQuery(append([]string{"customer", a}, window...)...)), "customer")
	require.Equal(t, "0", getReport(t, other, reportPath+"event/gb"+reportQuery(window...))["usage"])
}

func TestEventsReport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := id(f.sk.CreateCustomer(testenv.Customer()))
	b := id(f.sk.CreateCustomer(testenv.Customer()))
	f.sk.PriceMeter("seats", "", "count")
	record(f.sk, "calls", "a1", a, "2", "2026-01-02T00:00:00Z")
	record(f.sk, "calls", "b1", b, "3", "2026-01-02T00:00:00Z")
	record(f.sk, "seats", "a2", a, "10", "2026-01-02T00:00:00Z")
	record(f.sk, "hidden", "a3", a, "50", "2026-01-02T00:00:00Z")
	window := []string{"start_date", "2026-01-01", "end_date", "2026-02-01"}

	r := getReport(t, f.sk, reportPath+"events"+reportQuery(append([]string{"events", "seats, calls,seats,nothing.yet", "customer", a}, window...)...))
	require.Equal(t, usageReportKeys, keys(r))
	require.Equal(t, a, r["customer"])
	els := r["aggregated_usage"].([]any)
	require.Len(t, els, 3, "one element per name asked, in order, repeats once")
	seats, calls, nothing := els[0].(map[string]any), els[1].(map[string]any), els[2].(map[string]any)
	require.Equal(t, "seats", seats["event_name"])
	require.Equal(t, "1", seats["usage"])
	require.Equal(t, "count", seats["aggregation"])
	require.Equal(t, "calls", calls["event_name"])
	require.Equal(t, "2", calls["usage"])
	require.Equal(t, eventUsageKeys, keys(nothing))
	require.Equal(t, "nothing.yet", nothing["event_name"])
	require.Equal(t, "0", nothing["usage"])
	require.Nil(t, nothing["meter_id"])
	require.Equal(t, "3", r["usage"])

	all := getReport(t, f.sk, reportPath+"events"+reportQuery(append([]string{"events", "calls"}, window...)...))
	require.Equal(t, "5", all["usage"])
	require.Nil(t, all["customer"])

	errs := requireValidation(t, f.sk.Get(reportPath+"events"), "events", "start_date", "end_date")
	requireProblem(t, errs, "events", "is required")
	requireValidation(t, f.sk.Get(reportPath+"events"+reportQuery(append([]string{"events", "a,,b"}, window...)...)), "events")
	requireValidation(t, f.sk.Get(reportPath+"events"+reportQuery(append([]string{"events", "calls", "customer", "x"}, window...)...)), "customer")
}

func TestSubscriptionUsageReport(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	// The period is [Jan 15 12:00, Feb 15 12:00).
	record(f.sk, "calls", "before", id(s.Customer), "100", "2026-01-15T11:59:59Z")
	record(f.sk, "calls", "start", id(s.Customer), "2", "2026-01-15T12:00:00Z")
	record(f.sk, "calls", "later", id(s.Customer), "3", "2026-01-15T12:30:00Z")

	r := getReport(t, f.sk, reportPath+"subscription"+reportQuery("subscription", id(sub)))
	require.Equal(t, sorted(append([]string{"subscription"}, usageReportKeys...)...), keys(r))
	require.Equal(t, id(sub), r["subscription"])
	require.Equal(t, id(s.Customer), r["customer"])
	require.Equal(t, "5", r["usage"], jsonString(r))
	require.Equal(t, "2026-01-15T12:00:00Z", r["period_start"])
	require.Equal(t, "2026-02-15T12:00:00Z", r["period_end"])

	requireValidation(t, f.sk.Get(reportPath+"subscription"), "subscription")
	requireError(t, f.sk.Get(reportPath+"subscription"+reportQuery("subscription", "nope")), http.StatusNotFound, "resource_missing", "id")
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireError(t, other.Get(reportPath+"subscription"+reportQuery("subscription", id(sub))), http.StatusNotFound, "resource_missing", "id")
}

// A subscription without a current period (a state only the database can
// make) has no period to report on: 422 subscription_no_current_period.
func TestSubscriptionUsageReportWithoutAPeriod(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	sub := f.sk.CreateSubscription(s.Subscription())
	f.exec(t, "UPDATE subscriptions SET current_period_start = NULL, current_period_end = NULL WHERE id = ?", id(sub))
	r := f.sk.Get(reportPath + "subscription" + reportQuery("subscription", id(sub)))
	requireError(t, r, http.StatusUnprocessableEntity, "subscription_no_current_period", "subscription")
}

func TestUsageReportOfATestClockCustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	clock := f.sk.CreateTestClock(testenv.TestClock(jan10))
	cu := id(f.sk.CreateClockedCustomer(id(clock)))
	ev := f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "now", cu).WithValue("4"))
	require.Equal(t, jan10, ev.Timestamp.Time, "the default timestamp is the clock's time")
	at := jan10.Format(time.RFC3339)
	report := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", cu, "from", at, "to", jan10.Add(time.Second).Format(time.RFC3339)))
	require.Equal(t, "4", report["usage"])
	before := getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", cu, "from", "2026-01-01", "to", at))
	require.Equal(t, "0", before["usage"])
}

// A deleted customer has no usage any more: the reports over every payer
// leave its events out, and a report asked for it is 422 invalid_state,
// as reporting or invoicing its usage is.
func TestUsageReportsLeaveADeletedCustomerOut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	kept := id(f.sk.CreateCustomer(testenv.Customer()))
	gone := id(f.sk.CreateCustomer(testenv.Customer()))
	record(f.sk, "calls", "k1", kept, "2", "2026-01-02T00:00:00Z")
	record(f.sk, "calls", "g1", gone, "40", "2026-01-02T00:00:00Z")
	window := []string{"start_date", "2026-01-01", "end_date", "2026-02-01"}
	everyPayer := func() (string, string) {
		events := getReport(t, f.sk, reportPath+"events"+reportQuery(append([]string{"events", "calls"}, window...)...))
		event := getReport(t, f.sk, reportPath+"event/calls"+reportQuery(window...))
		return events["usage"].(string), event["usage"].(string)
	}
	events, event := everyPayer()
	require.Equal(t, []string{"42", "42"}, []string{events, event}, "both payers before the deletion")

	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+gone).Status)
	events, event = everyPayer()
	require.Equal(t, []string{"2", "2"}, []string{events, event}, "the deleted customer's usage left out")
	for _, path := range []string{
		"customer" + reportQuery("customer", gone, "from", "2026-01-01", "to", "2026-02-01"),
		"events" + reportQuery(append([]string{"events", "calls", "customer", gone}, window...)...),
		"event/calls" + reportQuery(append([]string{"customer", gone}, window...)...),
	} {
		e := requireError(t, f.sk.Get(reportPath+path), http.StatusUnprocessableEntity, "invalid_state", "")
		require.Contains(t, e["message"], "customer is deleted", path)
	}
	require.Equal(t, "2", getReport(t, f.sk, reportPath+"customer"+reportQuery("customer", kept, "from", "2026-01-01",
		"to", "2026-02-01"))["usage"])
}
