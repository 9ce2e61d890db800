package graph_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const meteringEventFields = `id eventName reference value markupPercentage timestamp metadata livemode created updated
	meter { id eventName aggregation } customer { id } account { id } invoice { id }`

func TestMeteringEventsAndMetersThroughTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()

	g := gql(t, f.sk, `mutation { configureBillingMeter(input: {eventName: "gb", aggregation: MAX}) { id eventName aggregation product { id } } }`, nil)
	meter := obj(g.Data["configureBillingMeter"])
	require.Equal(t, "MAX", meter["aggregation"])
	require.Nil(t, meter["product"])

	create := `mutation($in: CreateMeteringEventInput!) { createMeteringEvent(input: $in) {` + meteringEventFields + `} }`
	g = gql(t, f.sk, create, map[string]any{"in": map[string]any{"eventName": "gb", "reference": "r1", "customer": cu,
		"value": "2.5", "timestamp": "2026-01-10T08:00:00Z", "metadata": map[string]any{"k": "v"}}})
	ev := obj(g.Data["createMeteringEvent"])
	require.Equal(t, "2.5", ev["value"])
	require.Equal(t, "2026-01-10T08:00:00Z", ev["timestamp"])
	require.Equal(t, meter["id"], obj(ev["meter"])["id"])
	require.Equal(t, cu, obj(ev["customer"])["id"])
	require.Nil(t, ev["account"])
	require.Nil(t, ev["invoice"])
	gql(t, f.sk, create, map[string]any{"in": map[string]any{"eventName": "gb", "reference": "r2", "customer": cu,
		"value": 4, "timestamp": 1768032000}})

	g = gql(t, f.sk, `mutation($id: ID!) { updateMeteringEvent(id: $id, input: {value: 7}) { id value } }`, map[string]any{"id": ev["id"]})
	require.Equal(t, "7", obj(g.Data["updateMeteringEvent"])["value"])

	g = gql(t, f.sk, `query($id: ID!, $cu: ID!) {
		meteringEvent(id: $id) { id value meter { id } }
		node(id: $id) { ... on MeteringEvent { id } }
		meteringEvents(filter: {customer: $cu}, first: 5) { edges { node { id reference } } pageInfo { hasNextPage } }
		billingMeters(filter: {eventName: "gb"}) { edges { node { id aggregation } } }
		usageReport(customer: $cu, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z") {
			usage periodStart periodEnd livemode customer { id } account { id }
			aggregatedUsage { eventName usage eventCount billedUsage unbilledUsage aggregation meterId meter { id } } }
		eventUsageReport(events: ["gb", "none"], from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z") {
			usage customer { id } aggregatedUsage { eventName usage eventCount meter { id } } }
	}`, map[string]any{"id": ev["id"], "cu": cu})
	require.Equal(t, "7", obj(g.Data["meteringEvent"])["value"])
	require.Equal(t, ev["id"], obj(g.Data["node"])["id"])
	require.Len(t, list(obj(g.Data["meteringEvents"])["edges"]), 2)
	require.Len(t, list(obj(g.Data["billingMeters"])["edges"]), 1)
	report := obj(g.Data["usageReport"])
	require.Equal(t, "7", report["usage"], "max of 7 and 4")
	require.Equal(t, "2026-01-01T00:00:00Z", report["periodStart"])
	require.Equal(t, cu, obj(report["customer"])["id"])
	gb := obj(list(report["aggregatedUsage"])[0])
	require.Equal(t, map[string]any{"eventName": "gb", "usage": "7", "eventCount": float64(2), "billedUsage": "0",
		"unbilledUsage": "7", "aggregation": "MAX", "meterId": meter["id"], "meter": map[string]any{"id": meter["id"]}}, gb)
	events := obj(g.Data["eventUsageReport"])
	require.Nil(t, events["customer"])
	els := list(events["aggregatedUsage"])
	require.Len(t, els, 2)
	require.Equal(t, "none", obj(els[1])["eventName"])
	require.Nil(t, obj(els[1])["meter"])

	// Every field problem at once, as REST reports it.
	_, e := gqlError(t, f.sk, create, map[string]any{"in": map[string]any{"eventName": "bad name", "reference": "",
		"value": "-1", "timestamp": "yesterday"}})
	require.Equal(t, "validation_errors", code(e))
	require.Equal(t, http.StatusUnprocessableEntity, status(e))

	// A publishable key reads no report.
	_, e = gqlError(t, f.pk, `query($cu: ID!) { usageReport(customer: $cu, from: "2026-01-01T00:00:00Z", to: "2026-02-01T00:00:00Z") { usage } }`,
		map[string]any{"cu": cu})
	require.Equal(t, http.StatusForbidden, status(e))
}

func TestCurrentUsageOfAPageOfCustomersCostsOneStatement(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// A customer on a clock in December: its current month is December.
	clock := f.sk.CreateTestClock(testenv.TestClock(time.Date(2025, 12, 20, 9, 0, 0, 0, time.UTC)))
	onClock := f.sk.CreateClockedCustomer(clock.ID.String()).ID.String()
	f.env.Clock.Advance(time.Minute)

	var customers []string
	for i := range 3 {
		cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
		customers = append(customers, cu)
		f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "c"+cu, cu).WithValue("2").At("2026-01-05T00:00:00Z"))
		f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "old"+cu, cu).WithValue("100").At("2025-12-31T23:59:59Z"))
		if i > 0 {
			f.sk.CreateMeteringEvent(testenv.MeteringEvent("bytes", "b"+cu, cu).WithValue("3").At("2026-01-06T00:00:00Z"))
		}
		f.env.Clock.Advance(time.Minute)
	}
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "clocked", onClock).WithValue("5"))

	query := `query($first: Int) { customers(first: $first) { edges { node { id
		usage { usage periodStart periodEnd customer { id } aggregatedUsage { eventName usage eventCount meter { id aggregation } } } } } } }`
	one := gql(t, f.sk, query, map[string]any{"first": 1})
	all := gql(t, f.sk, query, map[string]any{"first": 10})
	// credential, the customers, their usage, the meters.
	require.Equal(t, 4, all.Statements, string(all.Raw))
	require.Equal(t, one.Statements, all.Statements)

	usage := map[string]map[string]any{}
	for _, e := range list(obj(all.Data["customers"])["edges"]) {
		n := obj(obj(e)["node"])
		usage[str(n["id"])] = obj(n["usage"])
	}
	require.Equal(t, "2", usage[customers[0]]["usage"])
	require.Equal(t, "5", usage[customers[1]]["usage"], "calls 2 and bytes 3")
	require.Equal(t, "2026-01-01T00:00:00Z", usage[customers[1]]["periodStart"])
	require.Equal(t, "2026-02-01T00:00:00Z", usage[customers[1]]["periodEnd"])
	require.Equal(t, customers[1], obj(usage[customers[1]]["customer"])["id"])
	require.Len(t, list(usage[customers[2]]["aggregatedUsage"]), 2)
	require.Equal(t, "5", usage[onClock]["usage"], "the clock's month holds its event")
	require.Equal(t, "2025-12-01T00:00:00Z", usage[onClock]["periodStart"], string(all.Raw))
	require.Equal(t, "2026-01-01T00:00:00Z", usage[onClock]["periodEnd"])
}

func TestSubscriptionUsageThroughTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	f.sk.CreateCard(cu, testenv.Visa)
	product := f.sk.CreateProduct(testenv.RecurringProduct(2000, "monthly")).ID.String()
	sub := f.sk.CreateSubscription(testenv.Subscription(cu, product)).ID.String()
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "in", cu).WithValue("3").At("2026-01-15T12:10:00Z"))
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "out", cu).WithValue("9").At("2026-01-15T11:00:00Z"))

	g := gql(t, f.sk, `query { subscriptions(first: 10) { edges { node { id usage { usage subscription { id } customer { id } } } } } }`, nil)
	u := obj(obj(obj(list(obj(g.Data["subscriptions"])["edges"])[0])["node"])["usage"])
	require.Equal(t, "3", u["usage"])
	require.Equal(t, sub, obj(u["subscription"])["id"])
	require.Equal(t, cu, obj(u["customer"])["id"])
}
