package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var billingMeterKeys = sorted("id", "object", "event_name", "name", "aggregation", "product", "metadata", "livemode",
	"created", "updated")

const metersPath = "/v1/billing/metering"

// Configuring a name's meter before or after its first event ends with
// the same meter: the first event makes it (sum, not priced), and POST
// /v1/billing/metering changes that one.
func TestBillingMeterConfiguredBeforeOrAfterTheFirstEvent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	pr := f.sk.CreateProduct(testenv.Product())

	ev := f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "c-1", cu.ID.String()))
	r := f.sk.Post(metersPath, map[string]any{"event_name": "calls", "aggregation": "count", "product": pr.ID.String(),
		"metadata": map[string]any{"team": "api"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	m := r.JSON()
	require.Equal(t, billingMeterKeys, keys(m))
	require.Equal(t, ev.MeterID.String(), id(m), "the meter the first event made")
	require.Equal(t, "billing_meter", m["object"])
	require.Equal(t, "count", m["aggregation"])
	require.Equal(t, "calls", m["name"], "the event name, under the Ruby SDK's name")
	require.Equal(t, pr.ID.String(), m["product"])
	require.Equal(t, map[string]any{"team": "api"}, m["metadata"])

	// Configured first: the first event takes that meter.
	r = f.sk.Post(metersPath, map[string]any{"event_name": "storage.gb", "aggregation": "max"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	storage := r.JSON()
	require.Nil(t, storage["product"])
	later := f.sk.CreateMeteringEvent(testenv.MeteringEvent("storage.gb", "s-1", cu.ID.String()))
	require.Equal(t, id(storage), later.MeterID.String())

	// PATCH: product "" stops pricing; aggregation kept when not given.
	r = f.sk.Patch(metersPath+"/"+id(m), map[string]any{"product": ""})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Nil(t, r.JSON()["product"])
	require.Equal(t, "count", r.JSON()["aggregation"])

	r = f.sk.Get(metersPath + "?event_name=calls")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	data := r.JSON()["data"].([]any)
	require.Len(t, data, 1)
	require.Equal(t, id(m), id(data[0]))
}

func TestBillingMeterRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	other := setup(t)
	foreign := other.sk.CreateProduct(testenv.Product())

	r := f.sk.Post(metersPath, map[string]any{"aggregation": "median", "event_name": "bad name/x", "metadata": map[string]any{"": "x"}})
	requireValidation(t, r, "event_name", "aggregation", "metadata")

	r = f.sk.Post(metersPath, map[string]any{"event_name": "calls", "product": foreign.ID.String()})
	requireValidation(t, r, "product")

	r = f.sk.Get(metersPath + "/" + foreign.ID.String())
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))

	r = f.pk.Post(metersPath, map[string]any{"event_name": "calls"})
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))
	r = f.pk.Get(metersPath)
	require.Equal(t, http.StatusForbidden, r.Status, string(r.Body))

	// Another merchant's meter is not found.
	m := other.sk.PriceMeter("calls", "", "")
	r = f.sk.Get(metersPath + "/" + m.ID.String())
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	r = f.sk.Patch(metersPath+"/"+m.ID.String(), map[string]any{"aggregation": "sum"})
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
}

// Ingest of an event costs the credential, the payer read (with its
// clock, the name's meter and the usage lock, in one statement) and the
// insert; a repeated reference one read more.
func TestMeteringEventIngestStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "warm", cu.ID.String()))
	credential := func() int {
		r := f.sk.Get(metersPath + "/not-an-id")
		require.Equal(t, http.StatusNotFound, r.Status)
		return r.Statements
	}
	base := credential()
	r := f.sk.Post(meteringEventsPath, testenv.MeteringEvent("calls", "n-1", cu.ID.String()).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, base+2, r.Statements, "payer read and insert")
	r = f.sk.Post(meteringEventsPath, testenv.MeteringEvent("calls", "n-1", cu.ID.String()).RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, base+3, r.Statements, "payer read, insert and the original's read")
}
