package rest_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// usageRecordKeys are the members of a usage record, a metering event as
// /v1/billing/metering answers it (the Node SDK's Metering, and the
// name the Ruby SDK reads); a payer it does not have is left out.
var usageRecordKeys = sorted("id", "object", "name", "event_name", "meter_id", "reference", "customer_id", "value",
	"timestamp", "metadata", "invoice", "livemode", "created", "updated")

// The Node SDK's createMetering, getMetering and updateMetering, as it
// sends them: a body with a value and a payer records usage through the
// ingest of /v1/billing/metering_events, read and corrected by its id on
// either path; a body without them configures a meter, named as the Ruby
// SDK names it.
func TestUsageRecordOnTheMeteringPath(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	at := testenv.Start.Add(-10 * time.Minute).Unix()
	r := f.sk.Post(metersPath, map[string]any{"event_name": "api_call", "customer_id": cu, "value": 1,
		"timestamp": at, "metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	rec := r.JSON()
	require.Equal(t, usageRecordKeys, keys(rec))
	require.Equal(t, "billing_metering", rec["object"])
	require.Equal(t, "api_call", rec["name"])
	require.Equal(t, "api_call", rec["event_name"])
	require.Equal(t, cu, rec["customer_id"])
	require.Equal(t, float64(1), rec["value"])
	require.Equal(t, float64(at), rec["timestamp"], "Unix seconds, as the SDK types it")
	require.Equal(t, map[string]any{"k": "v"}, rec["metadata"])
	require.NotEmpty(t, rec["reference"], "a reference of its own when none is sent")

	ev := f.sk.Get(meteringEventsPath + "/" + id(rec))
	require.Equal(t, http.StatusOK, ev.Status, string(ev.Body))
	require.Equal(t, "billing_metric_event", ev.JSON()["object"], "the same event, as the spec renders it")
	require.Equal(t, rec["reference"], ev.JSON()["reference"])
	require.Equal(t, rec["meter_id"], ev.JSON()["meter_id"])

	got := f.sk.Get(metersPath + "/" + id(rec))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, rec, got.JSON())

	r = f.sk.Patch(metersPath+"/"+id(rec), map[string]any{"value": 2, "metadata": map[string]any{"k": "w"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(2), r.JSON()["value"])
	require.Equal(t, map[string]any{"k": "w"}, r.JSON()["metadata"])
	require.Equal(t, 2.0, f.sk.Get(meteringEventsPath + "/" + id(rec)).JSON()["value"], "corrected as the event")

	// An account's usage leaves customer_id out.
	acct := id(f.sk.CreateAccount(testenv.Individual()))
	r = f.sk.Post(metersPath, map[string]any{"event_name": "api_call", "account": acct, "value": 3})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, acct, r.JSON()["account_id"])
	require.NotContains(t, r.JSON(), "customer_id")

	// The Ruby SDK's create names the meter's event name "name".
	r = f.sk.Post(metersPath, map[string]any{"name": "storage.gb"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	meter := r.JSON()
	require.Equal(t, billingMeterKeys, keys(meter))
	require.Equal(t, "storage.gb", meter["name"])
	require.Equal(t, meter, f.sk.Get(metersPath+"/"+id(meter)).JSON())

	// The record's meter is the event name's, and lists hold meters only.
	r = f.sk.Get(metersPath + "?event_name=api_call")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	data := r.JSON()["data"].([]any)
	require.Len(t, data, 1)
	require.Equal(t, rec["meter_id"], id(data[0]))
}

// Members of the other kind are refused by name with the body's other
// problems, never dropped unseen; another tenant's ids are not found;
// and a refusal records nothing.
func TestUsageRecordRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))

	requireValidation(t, f.sk.Post(metersPath, map[string]any{"event_name": "bad name", "value": "lots",
		"aggregation": "max", "product": "x"}), "event_name", "value", "customer", "aggregation", "product")
	requireValidation(t, f.sk.Post(metersPath, map[string]any{"event_name": "calls", "customer_id": cu}), "value")
	requireValidation(t, f.sk.Post(metersPath, map[string]any{"event_name": "calls", "name": "other"}), "name")
	requireValidation(t, f.sk.Post(metersPath, map[string]any{"event_name": "calls", "customer_id": cu, "value": 1,
		"timestamp": "yesterday", "markup_percentage": -1}), "timestamp", "markup_percentage")
	requireError(t, f.sk.Post(metersPath, []any{1}), http.StatusBadRequest, "invalid_json", "")
	require.Equal(t, http.StatusForbidden, f.pk.Post(metersPath, map[string]any{"event_name": "calls",
		"customer_id": cu, "value": 1}).Status)

	rec := f.sk.Post(metersPath, map[string]any{"event_name": "calls", "customer_id": cu, "value": 1}).JSON()
	meter := rec["meter_id"].(string)
	requireValidation(t, f.sk.Patch(metersPath+"/"+id(rec), map[string]any{"aggregation": "max", "value": -1}),
		"aggregation", "value")
	requireValidation(t, f.sk.Patch(metersPath+"/"+meter, map[string]any{"value": 2, "timestamp": 0}),
		"value", "timestamp")

	// Another merchant: its customer is not a payer here, its ids are not
	// found.
	other := setup(t)
	requireValidation(t, other.sk.Post(metersPath, map[string]any{"event_name": "calls", "customer_id": cu, "value": 1}),
		"customer")
	for _, path := range []string{metersPath + "/" + id(rec), metersPath + "/" + meter} {
		requireError(t, other.sk.Get(path), http.StatusNotFound, "resource_missing", "id")
		requireError(t, other.sk.Patch(path, map[string]any{"metadata": map[string]any{"k": "x"}}),
			http.StatusNotFound, "resource_missing", "id")
	}

	require.Equal(t, 1, countEvents(t, f, "calls"), "only the one accepted record")
	require.Equal(t, 1.0, f.sk.Get(metersPath + "/" + id(rec)).JSON()["value"], "unchanged")
	require.Equal(t, "sum", f.sk.Get(metersPath + "/" + meter).JSON()["aggregation"], "unchanged")
}

// A record sent without a reference counts once per request; retried
// with its Idempotency-Key, even concurrently, it counts once.
func TestUsageRecordRetries(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	body := map[string]any{"event_name": "retried", "customer_id": cu, "value": 1}

	first := f.sk.Post(metersPath, body)
	second := f.sk.Post(metersPath, body)
	require.Equal(t, http.StatusCreated, second.Status, string(second.Body))
	require.NotEqual(t, id(first.JSON()), id(second.JSON()), "two requests without a key are two records")

	key := http.Header{"Idempotency-Key": {"usage-7"}}
	got := make([]*testenv.Response, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = f.sk.Do(http.MethodPost, metersPath, body, key)
		}()
	}
	wg.Wait()
	recorded := ""
	for _, r := range got {
		if r.Status == http.StatusConflict {
			requireError(t, r, http.StatusConflict, "idempotency_key_in_use", "")
			continue
		}
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		if recorded == "" {
			recorded = id(r.JSON())
		}
		require.Equal(t, recorded, id(r.JSON()))
	}
	require.NotEmpty(t, recorded, "one of the racing requests records it")
	replay := f.sk.Do(http.MethodPost, metersPath, body, key)
	require.Equal(t, recorded, id(replay.JSON()))
	require.Equal(t, 3, countEvents(t, f, "retried"))
}

// A record's ingest costs what /v1/billing/metering_events' does; reading
// one by id costs the meter's read and the event's.
func TestUsageRecordStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cu := id(f.sk.CreateCustomer(testenv.Customer()))
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "warm", cu))
	r := f.sk.Get(metersPath + "/not-an-id")
	require.Equal(t, http.StatusNotFound, r.Status)
	base := r.Statements

	r = f.sk.Post(metersPath, map[string]any{"event_name": "calls", "customer_id": cu, "value": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, base+2, r.Statements, "payer read and insert")
	rec := r.JSON()

	r = f.sk.Get(metersPath + "/" + id(rec))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, base+2, r.Statements, "the meter's read, then the event's")
	r = f.sk.Get(metersPath + "/" + rec["meter_id"].(string))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, base+1, r.Statements, "the meter's read")
}

// countEvents counts the metering events of name in f's merchant.
func countEvents(t *testing.T, f *fixture, name string) int {
	t.Helper()
	r := f.sk.Get(meteringEventsPath + "?per_page=100&event_name=" + name)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	return len(r.JSON()["data"].([]any))
}
