package rest_test

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// One merchant's endpoints that never answer hold at most its share of the
// delivery workers (half of them): another merchant's delivery is made
// while that backlog is still pending, instead of after it. Nothing here
// waits on a duration: the stuck receivers answer only when the test lets
// them.
func TestWebhookDeliveryOneMerchantsStuckEndpointsDoNotDelayAnother(t *testing.T) {
	t.Parallel()
	f := setup(t)
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // before the receiver closes
	var inFlight, most atomic.Int32
	var held signal
	stuck := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		held.notify()
		<-release
		inFlight.Add(-1)
	})
	const endpoints, backlog = 4, 5 // four stuck endpoints: as many as the workers
	var stuckEndpoints []string
	for i := range endpoints {
		ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(stuck.URL+"/"+strconv.Itoa(i), "account.created"))
		stuckEndpoints = append(stuckEndpoints, id(ep))
	}
	for range backlog {
		f.sk.CreateAccount(testenv.Individual())
	}
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(keys.Sandbox.Secret)
	healthy := newReceiver(t, nil)
	other.CreateWebhookEndpoint(testenv.WebhookEndpoint(healthy.URL, "account.created"))

	cfg := testenv.FastDelivery() // four workers
	cfg.Timeout = 5 * time.Minute // the stuck attempts end only when released
	f.env.StartDelivery(cfg)
	held.await(func() bool { return inFlight.Load() == 2 }) // the stuck merchant's deliveries in flight

	other.CreateAccount(testenv.Individual())
	healthy.await(1) // the other merchant's delivery
	require.Equal(t, int32(2), most.Load(), "the stuck merchant never held more than its share of the workers")
	require.Len(t, stuck.requests(), 2, "its other deliveries wait without a worker")
	pending := 0
	for _, ep := range stuckEndpoints {
		for _, d := range deliveries(t, f, ep) {
			require.Equal(t, "pending", d["status"])
			pending++
		}
	}
	require.Equal(t, endpoints*backlog, pending, "the backlog is still pending")

	once.Do(func() { close(release) })
	want := listEvents(t, f.sk, "account.created")
	for _, ep := range stuckEndpoints {
		ds := waitDelivered(t, f, ep, backlog)
		for i, d := range ds {
			require.Equal(t, "succeeded", d["status"])
			require.Equal(t, want[i].ID, d["event_id"], "each endpoint still gets its events in order")
		}
	}
}

// An endpoint whose every attempt fails for DisableAfter (three days) is
// disabled, with a webhook_endpoint.disabled event, and receives nothing
// more; failing for less keeps it active.
func TestWebhookEndpointFailingForThreeDaysIsDisabled(t *testing.T) {
	t.Parallel()
	f := setup(t)
	failing := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	watcher := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(failing.URL, "account.created"))
	watch := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(watcher.URL, "webhook_endpoint.disabled"))
	cfg := testenv.FastDelivery()
	cfg.Schedule.MaxAttempts = 1
	f.env.StartDelivery(cfg)

	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 1)
	f.env.Clock.Advance(72*time.Hour - time.Second)
	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 2)
	require.Equal(t, "active", f.sk.Get("/v1/webhook_endpoints/" + id(ep)).JSON()["status"], "failing for less than three days")
	require.Empty(t, listEvents(t, f.sk, "webhook_endpoint.disabled"))

	f.env.Clock.Advance(time.Second)
	f.sk.CreateAccount(testenv.Individual())
	for _, d := range waitDelivered(t, f, id(ep), 3) {
		require.Equal(t, "failed", d["status"])
	}
	require.Equal(t, "disabled", f.sk.Get("/v1/webhook_endpoints/" + id(ep)).JSON()["status"])
	evs := listEvents(t, f.sk, "webhook_endpoint.disabled")
	require.Len(t, evs, 1)
	ev := f.sk.Get("/v1/events/" + evs[0].ID).JSON()
	data := ev["data"].(map[string]any)
	require.Equal(t, id(ep), data["object"].(map[string]any)["id"])
	require.Equal(t, "disabled", data["object"].(map[string]any)["status"])
	require.Equal(t, "active", data["previous_attributes"].(map[string]any)["status"])
	require.Equal(t, "succeeded", waitDelivered(t, f, id(watch), 1)[0]["status"], "the event is delivered to the endpoints subscribed to it")

	f.sk.CreateAccount(testenv.Individual())
	require.Len(t, deliveries(t, f, id(ep)), 3, "a disabled endpoint receives nothing more")
	require.Len(t, failing.requests(), 3)

	// Enabled again, its failures count anew.
	f.sk.Patch("/v1/webhook_endpoints/"+id(ep), map[string]any{"status": "active"})
	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 4)
	require.Equal(t, "active", f.sk.Get("/v1/webhook_endpoints/" + id(ep)).JSON()["status"])
}
