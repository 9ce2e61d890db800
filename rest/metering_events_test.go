package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var meteringEventKeys = sorted("id", "object", "meter_id", "event_name", "reference", "customer_id", "account_id", "value",
	"markup_percentage", "timestamp", "metadata", "invoice", "livemode", "created", "updated")

const meteringEventsPath = "/v1/billing/metering_events"

func TestMeteringEventCreateAndRead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	r := f.sk.Post(meteringEventsPath, map[string]any{"event_name": "api.calls", "reference": "req-1",
		"customer": cu.ID.String(), "value": 2.5, "timestamp": "2026-01-10T12:00:00Z", "metadata": map[string]any{"region": "eu"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	ev := r.JSON()
	require.Equal(t, meteringEventKeys, keys(ev))
	require.Equal(t, "billing_metric_event", ev["object"])
	require.Equal(t, 2.5, ev["value"])
	require.Equal(t, "2026-01-10T12:00:00Z", ev["timestamp"])
	require.Equal(t, cu.ID.String(), ev["customer_id"])
	require.Nil(t, ev["account_id"])
	require.NotEmpty(t, ev["meter_id"])

	got := f.sk.Get(meteringEventsPath + "/" + id(ev))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, ev, got.JSON())

	// The same reference again, with other values: the original, unchanged.
	again := f.sk.Post(meteringEventsPath, map[string]any{"event_name": "api.calls", "reference": "req-1",
		"customer": cu.ID.String(), "value": 99})
	require.Equal(t, http.StatusCreated, again.Status, string(again.Body))
	require.Equal(t, ev, again.JSON())

	meter := f.sk.Get("/v1/billing/metering/" + ev["meter_id"].(string))
	require.Equal(t, http.StatusOK, meter.Status, string(meter.Body))
	require.Equal(t, "sum", meter.JSON()["aggregation"])
	require.Equal(t, "api.calls", meter.JSON()["event_name"])
}

func TestMeteringEventConcurrentDuplicatesMakeOneRow(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := f.sk.CreateCustomer(testenv.Customer())
	spec := testenv.MeteringEvent("tokens", "batch-7", cu.ID.String()).WithValue("3")
	var wg sync.WaitGroup
	got := make([]string, 32)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post(meteringEventsPath, spec.RESTBody())
			if r.Status == http.StatusCreated {
				got[i] = id(r.JSON())
			} else {
				got[i] = string(r.Body)
			}
		}()
	}
	wg.Wait()
	for _, g := range got {
		require.Equal(t, got[0], g)
	}
	var n int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM metering_events WHERE reference = 'batch-7'").Scan(t.Context(), &n))
	require.Equal(t, 1, n)
}
