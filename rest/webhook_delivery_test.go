package rest_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var deliveryKeys = sorted("id", "object", "webhook_endpoint_id", "event_id", "event_type", "status",
	"attempt_count", "last_status_code", "last_error", "next_attempt_at", "attempts", "livemode", "created", "updated")

var attemptKeys = sorted("id", "object", "webhook_delivery_id", "attempt", "url", "status_code", "error",
	"latency_ms", "response_excerpt", "livemode", "created")

func TestWebhookDeliverySignedAndRecorded(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("thanks")) })
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL+"/hooks", "account.created"))
	secret := *ep.Secret
	f.env.StartDelivery(testenv.FastDelivery())

	a := f.sk.CreateAccount(testenv.Individual())
	f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "v"}}) // account.updated: not subscribed
	ds := waitDelivered(t, f, id(ep), 1)

	got := rc.requests()
	require.Len(t, got, 1, "only the subscribed type is delivered")
	req := got[0]
	evs := listEvents(t, f.sk, "account.created")
	require.Len(t, evs, 1)
	event := f.sk.Get("/v1/events/" + evs[0].ID)
	require.JSONEq(t, string(event.Body), string(req.Body), "the body is the event as GET /v1/events/{id} renders it")

	// An integration's existing verification accepts it unchanged.
	require.Equal(t, "application/json", req.Header.Get("Content-Type"))
	require.Equal(t, "account.created", req.Header.Get("X-Frame-Event"))
	require.Equal(t, id(ds[0]), req.Header.Get("X-Frame-Webhook-Id"))
	require.True(t, webhook.Verify(secret, req.Body, req.Header.Get("X-Frame-Signature")))
	require.True(t, strings.HasPrefix(req.Header.Get("X-Frame-Signature"), "sha256="))
	require.False(t, webhook.Verify("whsec_00000000000000000000000000000000", req.Body, req.Header.Get("X-Frame-Signature")))
	ts, err := strconv.ParseInt(req.Header.Get("X-Frame-Timestamp"), 10, 64)
	require.NoError(t, err)
	require.True(t, webhook.VerifyV2(secret, req.Body, req.Header.Get("X-Frame-Signature-V2"), ts, 300))
	require.False(t, webhook.VerifyV2(secret, req.Body, req.Header.Get("X-Frame-Signature-V2"), ts+301, 300), "a stale timestamp is refused")
	tampered := append([]byte(nil), req.Body...)
	tampered[len(tampered)-2] ^= 1
	require.False(t, webhook.Verify(secret, tampered, req.Header.Get("X-Frame-Signature")))

	d := ds[0]
	require.Equal(t, deliveryKeys, keys(d))
	require.Equal(t, "webhook_delivery", d["object"])
	require.Equal(t, "succeeded", d["status"])
	require.Equal(t, id(ep), d["webhook_endpoint_id"])
	require.Equal(t, evs[0].ID, d["event_id"])
	require.Equal(t, float64(1), d["attempt_count"])
	require.Equal(t, float64(200), d["last_status_code"])
	require.Nil(t, d["next_attempt_at"])
	at := d["attempts"].([]any)[0].(map[string]any)
	require.Equal(t, attemptKeys, keys(at))
	require.Equal(t, float64(1), at["attempt"])
	require.Equal(t, float64(200), at["status_code"])
	require.Equal(t, "thanks", at["response_excerpt"])
	require.Equal(t, rc.URL+"/hooks", at["url"])
	requireInt(t, at["latency_ms"], "latency")
	require.Equal(t, d, f.sk.Get("/v1/webhook_deliveries/"+id(d)).JSON(), "retrieve answers what the list answered")
	requireError(t, f.live.Get("/v1/webhook_deliveries/"+id(d)), http.StatusNotFound, "resource_missing", "id")
}

func TestWebhookDeliveryRetriesAfter500AndTimeout(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := testenv.FastDelivery()
	cfg.Timeout = 300 * time.Millisecond
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 0:
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte("boom"))
		case 1:
			<-r.Context().Done() // answers only once the delivery gave up on it
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL, "account.created"))
	f.env.StartDelivery(cfg)
	f.sk.CreateAccount(testenv.Individual())

	d := waitDelivered(t, f, id(ep), 1)[0]
	require.Equal(t, "succeeded", d["status"])
	require.Equal(t, float64(3), d["attempt_count"])
	ats := d["attempts"].([]any)
	require.Len(t, ats, 3)
	first, second, third := ats[0].(map[string]any), ats[1].(map[string]any), ats[2].(map[string]any)
	require.Equal(t, float64(500), first["status_code"])
	require.Equal(t, "boom", first["response_excerpt"])
	require.Nil(t, second["status_code"])
	require.Contains(t, second["error"], "timeout")
	require.Equal(t, float64(204), third["status_code"])
	reqs := rc.requests()
	require.Len(t, reqs, 3)
	require.Equal(t, reqs[0].Body, reqs[2].Body, "a retry sends the same event")
	require.Equal(t, reqs[0].Header.Get("X-Frame-Webhook-Id"), reqs[2].Header.Get("X-Frame-Webhook-Id"), "under the same delivery id")
}

func TestWebhookDeliveryFinalFailure(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := testenv.FastDelivery()
	cfg.Schedule = webhook.Schedule{MaxAttempts: 3, Base: time.Millisecond, Max: time.Millisecond}
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(strings.Repeat("x", 100_000)))
	})
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL, "account.created"))
	f.env.StartDelivery(cfg)
	f.sk.CreateAccount(testenv.Individual())

	d := waitDelivered(t, f, id(ep), 1)[0]
	require.Equal(t, "failed", d["status"])
	require.Equal(t, float64(3), d["attempt_count"])
	require.Equal(t, float64(502), d["last_status_code"])
	require.Nil(t, d["next_attempt_at"])
	for i, raw := range d["attempts"].([]any) {
		at := raw.(map[string]any)
		require.Equal(t, float64(i+1), at["attempt"])
		require.Len(t, at["response_excerpt"], 1024, "the excerpt is bounded")
	}
	awaitDeliveryJobsDone(t, f)
	require.Len(t, rc.requests(), 3, "no attempt after the last")
	failed := f.sk.Get("/v1/webhook_endpoints/" + id(ep) + "/deliveries?status=failed").JSON()["data"].([]any)
	require.Len(t, failed, 1)
	requireValidation(t, f.sk.Get("/v1/webhook_endpoints/"+id(ep)+"/deliveries?status=lost"), "status")
}

func TestWebhookDeliveryDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var hit atomic.Int32
	target := newReceiver(t, func(int, http.ResponseWriter, *http.Request) { hit.Add(1) })
	cfg := testenv.FastDelivery()
	cfg.Schedule = webhook.Schedule{MaxAttempts: 1}
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	})
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL))
	f.env.StartDelivery(cfg)
	f.sk.CreateAccount(testenv.Individual())
	d := waitDelivered(t, f, id(ep), 1)[0]
	require.Equal(t, "failed", d["status"])
	at := d["attempts"].([]any)[0].(map[string]any)
	require.Equal(t, float64(307), at["status_code"])
	require.Contains(t, at["error"], "redirect not followed")
	require.Zero(t, hit.Load())
}

func TestWebhookDeliveryOrderPerEndpoint(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "webhook deliveries of many events through the job engine")
	f := setup(t)
	rc := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL, "account.created"))
	const n = 12
	for range n {
		f.sk.CreateAccount(testenv.Individual())
	}
	f.env.StartDelivery(testenv.FastDelivery()) // four workers, all deliveries queued at once
	waitDelivered(t, f, id(ep), n)

	var order []string
	for _, r := range rc.requests() {
		var e struct{ ID string }
		require.NoError(t, json.Unmarshal(r.Body, &e))
		order = append(order, e.ID)
	}
	var want []string
	for _, e := range listEvents(t, f.sk, "account.created") {
		want = append(want, e.ID) // listEvents answers oldest first
	}
	require.Equal(t, want, order, "events reach one endpoint in the order they were written")
}

func TestWebhookDeliveryTwoProcessesDeliverEachOnce(t *testing.T) {
	t.Parallel()
	testenv.Long(t, "two delivery engines on one database")
	f := setup(t)
	a, b := newReceiver(t, nil), newReceiver(t, nil)
	epA := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(a.URL))
	epB := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(b.URL, "account.created", "account.updated"))
	// Two delivery processes (engine, dispatcher, pool each) on one database.
	// A generous timeout: an answer slower than the timeout (a loaded
	// machine) is rightly retried and then arrives twice, which is the
	// at-least-once contract, not the double claim this test looks for.
	cfg := testenv.FastDelivery()
	cfg.Timeout = 10 * time.Second
	f.env.StartDelivery(cfg)
	f.env.StartDelivery(cfg)
	const n = 10
	for i := range n {
		acc := f.sk.CreateAccount(testenv.Individual())
		f.sk.Patch("/v1/accounts/"+id(acc), map[string]any{"metadata": map[string]any{"i": strconv.Itoa(i)}})
	}
	waitDelivered(t, f, id(epA), 2*n)
	waitDelivered(t, f, id(epB), 2*n)
	awaitDeliveryJobsDone(t, f) // no attempt left that could arrive twice
	for _, rc := range []*receiver{a, b} {
		seen := map[string]bool{}
		for _, r := range rc.requests() {
			did := r.Header.Get("X-Frame-Webhook-Id")
			require.False(t, seen[did], "delivery %s arrived twice", did)
			seen[did] = true
		}
		require.Len(t, seen, 2*n, "every event delivered")
	}
}
