package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestMeteringEventReportsEveryFieldProblemAtOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	errs := requireValidation(t, f.sk.Post(meteringEventsPath, map[string]any{
		"event_name": "bad name", "reference": "", "value": "-1", "timestamp": "yesterday",
		"markup_percentage": "1e400x", "metadata": map[string]any{"k": strings.Repeat("v", 600)},
	}), "customer", "event_name", "reference", "value", "timestamp", "markup_percentage", "metadata.k")
	requireProblem(t, errs, "customer", "is required")
	requireProblem(t, errs, "value", "must not be negative")

	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	base := testenv.MeteringEvent("calls", "r", cu).RESTBody()
	requireValidation(t, f.sk.Post(meteringEventsPath, merge(base, map[string]any{"event_name": del, "reference": del, "value": del})),
		"event_name", "reference", "value")
	requireValidation(t, f.sk.Post(meteringEventsPath, merge(base, map[string]any{"account": cu})), "customer")
	requireValidation(t, f.sk.Post(meteringEventsPath, merge(base, map[string]any{"event_name": strings.Repeat("a", 101)})), "event_name")
	requireValidation(t, f.sk.Post(meteringEventsPath, merge(base, map[string]any{"reference": strings.Repeat("r", 256)})), "reference")
	requireError(t, f.sk.Post(meteringEventsPath, merge(base, map[string]any{"value": true})), http.StatusBadRequest, "parameter_invalid", "value")
}

func TestMeteringEventValueBoundsAndDecimals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	post := func(ref string, value any) *testenv.Response {
		return f.sk.Post(meteringEventsPath, merge(testenv.MeteringEvent("calls", ref, cu).RESTBody(), map[string]any{"value": value}))
	}
	for ref, tc := range map[string]struct {
		value any
		want  float64
	}{
		"zero":     {0, 0},
		"decimals": {"0.000000000001", 0.000000000001},
		"largest":  {"99999999999", 99999999999},
		// Every decimal: kept exactly as text (the answer's JSON number
		// has them all), though a float64 reading of it rounds.
		"precise":  {"12345678901.123456789012", 12345678901.123456789012},
		"string":   {"12.50", 12.5},
		"exponent": {1.5e3, 1500},
	} {
		r := post(ref, tc.value)
		require.Equal(t, http.StatusCreated, r.Status, "%s: %s", ref, r.Body)
		require.Equal(t, tc.want, r.JSON()["value"], ref)
		if ref == "precise" {
			require.Contains(t, string(r.Body), `"value":12345678901.123456789012`)
		}
	}
	requireProblem(t, requireValidation(t, post("neg", -0.5), "value"), "value", "must not be negative")
	requireProblem(t, requireValidation(t, post("big", "99999999999.000000000001"), "value"), "value", "must be at most 99999999999")
	requireProblem(t, requireValidation(t, post("bigger", 1e15), "value"), "value", "must be at most 99999999999")
	requireProblem(t, requireValidation(t, post("fine", "0.0000000000001"), "value"), "value", "must have at most 12 decimals")
	requireValidation(t, post("text", "ten"), "value")
	requireValidation(t, f.sk.Post(meteringEventsPath, merge(testenv.MeteringEvent("calls", "mk", cu).RESTBody(),
		map[string]any{"markup_percentage": -1})), "markup_percentage")
}

func TestMeteringEventTimestampFormats(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	post := func(ref string, ts any) *testenv.Response {
		return f.sk.Post(meteringEventsPath, merge(testenv.MeteringEvent("calls", ref, cu).RESTBody(), map[string]any{"timestamp": ts}))
	}
	for ref, tc := range map[string]struct {
		ts   any
		want string
	}{
		"iso":       {"2026-01-10T12:00:00Z", "2026-01-10T12:00:00Z"},
		"offset":    {"2026-01-10T14:00:00+02:00", "2026-01-10T12:00:00Z"},
		"fraction":  {"2026-01-10T12:00:00.75Z", "2026-01-10T12:00:00Z"},
		"unix":      {1768046400, "2026-01-10T12:00:00Z"},
		"hour-over": {testenv.Start.Unix() + 3600, "2026-01-15T13:00:00Z"},
	} {
		r := post(ref, tc.ts)
		require.Equal(t, http.StatusCreated, r.Status, "%s: %s", ref, r.Body)
		require.Equal(t, tc.want, r.JSON()["timestamp"], ref)
	}
	// The default is the server's time (no test clock), to the second.
	r := post("default", del)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, testenv.Start.Format("2006-01-02T15:04:05Z"), r.JSON()["timestamp"])

	requireValidation(t, post("bad", "10/01/2026"), "timestamp")
	requireValidation(t, post("float", 1.5), "timestamp")
	requireValidation(t, post("year", "10000-01-01T00:00:00Z"), "timestamp")
	requireProblem(t, requireValidation(t, post("ahead", testenv.Start.Unix()+3601), "timestamp"),
		"timestamp", "must not be more than an hour after the payer's current time")
}

func TestMeteringEventPayers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))

	// customer_id is the SDK's name for customer.
	r := f.sk.Post(meteringEventsPath, map[string]any{"event_name": "calls", "reference": "sdk", "customer_id": cu, "value": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, cu, r.JSON()["customer_id"])
	requireValidation(t, f.sk.Post(meteringEventsPath, map[string]any{"event_name": "calls", "reference": "both",
		"customer_id": cu, "customer": id(f.sk.CreateCustomer(testenv.Customer())), "value": 1}), "customer_id")

	// Another merchant's customer, a malformed id, a deleted customer.
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireValidation(t, other.Post(meteringEventsPath, testenv.MeteringEvent("calls", "x", cu).RESTBody()), "customer")
	requireValidation(t, f.sk.Post(meteringEventsPath, testenv.MeteringEvent("calls", "x", "nope").RESTBody()), "customer")
	requireValidation(t, f.live.Post(meteringEventsPath, testenv.MeteringEvent("calls", "x", cu).RESTBody()), "customer")
	gone := id(f.sk.CreateCustomer(testenv.Customer()))
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+gone).Status)
	requireError(t, f.sk.Post(meteringEventsPath, testenv.MeteringEvent("calls", "gone", gone).RESTBody()),
		http.StatusUnprocessableEntity, "invalid_state", "")

	// A disabled account reports nothing more, alone or in a batch;
	// what it reported before stays as it was.
	acct := id(f.sk.CreateAccount(testenv.Individual()))
	byAccount := func(ref string) map[string]any {
		return map[string]any{"event_name": "calls", "reference": ref, "account": acct, "value": 1}
	}
	r = f.sk.Post(meteringEventsPath, byAccount("before"))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	before := id(r.JSON())
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/accounts/"+acct).Status)
	e := requireError(t, f.sk.Post(meteringEventsPath, byAccount("after")), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Contains(t, e["message"], "account is disabled")
	requireError(t, f.sk.Patch(meteringEventsPath+"/"+before, map[string]any{"value": 2}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, float64(1), f.sk.Get(meteringEventsPath + "/" + before).JSON()["value"])

	// A production key records in its own mode.
	live := id(f.live.CreateCustomer(testenv.Customer()))
	ev := f.live.CreateMeteringEvent(testenv.MeteringEvent("calls", "live", live))
	require.True(t, ev.Livemode)
	requireError(t, f.sk.Get(meteringEventsPath+"/"+ev.ID.String()), http.StatusNotFound, "resource_missing", "id")

	// The publishable key records and reads nothing.
	requireError(t, f.pk.Post(meteringEventsPath, testenv.MeteringEvent("calls", "pk", cu).RESTBody()), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Patch(meteringEventsPath+"/"+ev.ID.String(), map[string]any{"value": 1}), http.StatusForbidden, "forbidden", "")
}

func TestMeteringEventCorrections(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateInvoicePayer("")
	inv := id(f.sk.CreateInvoice(p.Invoice("request_payment", 1)))
	ev := f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "a", id(p.Customer)).WithValue("2").At("2026-01-10T00:00:00Z"))
	path := meteringEventsPath + "/" + ev.ID.String()

	r := f.sk.Patch(path, map[string]any{"value": "3.5", "timestamp": "2026-01-11T00:00:00Z", "metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := r.JSON()
	require.Equal(t, 3.5, got["value"])
	require.Equal(t, "2026-01-11T00:00:00Z", got["timestamp"])
	require.Equal(t, map[string]any{"k": "v"}, got["metadata"])

	requireValidation(t, f.sk.Patch(path, map[string]any{"value": -1, "timestamp": "soon"}), "value", "timestamp")
	requireProblem(t, requireValidation(t, f.sk.Patch(path, map[string]any{"timestamp": testenv.Start.Unix() + 3601}), "timestamp"),
		"timestamp", "must not be more than an hour after the payer's current time")
	requireError(t, f.sk.Patch(meteringEventsPath+"/nope", map[string]any{"value": 1}), http.StatusNotFound, "resource_missing", "id")

	// A window billed for the payer and name: no timestamp moves into it.
	f.exec(t, `INSERT INTO usage_invoice_windows (merchant_id, livemode, invoice_id, event_name, customer_id, period_start, period_end)
		VALUES (?, false, ?, 'calls', ?, '2026-01-01T00:00:00Z', '2026-01-08T00:00:00Z')`, f.env.Merchant.ID, inv, id(p.Customer))
	requireError(t, f.sk.Patch(path, map[string]any{"timestamp": "2026-01-07T23:59:59Z"}), http.StatusUnprocessableEntity,
		"usage_period_invoiced", "timestamp")
	r = f.sk.Patch(path, map[string]any{"timestamp": "2026-01-08T00:00:00Z"})
	require.Equal(t, http.StatusOK, r.Status, "the window's end is outside it: %s", r.Body)
	requireError(t, f.sk.Post(meteringEventsPath, testenv.MeteringEvent("calls", "late", id(p.Customer)).At("2026-01-03T00:00:00Z").RESTBody()),
		http.StatusUnprocessableEntity, "usage_period_invoiced", "timestamp")

	// A billed event no longer changes.
	f.exec(t, "UPDATE metering_events SET invoice_id = ? WHERE id = ?", inv, ev.ID)
	requireError(t, f.sk.Patch(path, map[string]any{"value": 9}), http.StatusUnprocessableEntity, "metering_event_invoiced", "")
	got = f.sk.Get(path).JSON()
	require.Equal(t, 3.5, got["value"])
	require.Equal(t, inv, got["invoice"])

	// Another tenant's event is not found.
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	requireError(t, f.env.Client(k.Sandbox.Secret).Patch(path, map[string]any{"value": 1}), http.StatusNotFound, "resource_missing", "id")
}
