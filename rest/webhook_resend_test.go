package rest_test

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestEventResendReplaysAFailedDelivery(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var failing atomic.Bool
	failing.Store(true)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if failing.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	other := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL, "account.created"))
	otherEp := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(other.URL, "invoice.paid")) // not subscribed to the event
	cfg := testenv.FastDelivery()
	cfg.Schedule = webhook.Schedule{MaxAttempts: 2}
	f.env.StartDelivery(cfg)
	f.sk.CreateAccount(testenv.Individual())
	first := waitDelivered(t, f, id(ep), 1)[0]
	require.Equal(t, "failed", first["status"])

	failing.Store(false)
	ev := listEvents(t, f.sk, "account.created")[0]
	r := f.sk.Post("/v1/events/"+ev.ID+"/resend", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, ev.ID, r.JSON()["id"], "the resend answers the event")
	ds := waitDelivered(t, f, id(ep), 2)
	require.Equal(t, "failed", ds[0]["status"], "the first delivery keeps its history")
	require.Equal(t, "succeeded", ds[1]["status"])
	require.NotEqual(t, id(ds[0]), id(ds[1]), "a resend is a new delivery")
	reqs := rc.requests()
	require.Len(t, reqs, 3)
	require.Equal(t, reqs[0].Body, reqs[2].Body, "the same event again")
	require.Equal(t, id(ds[1]), reqs[2].Header.Get("X-Frame-Webhook-Id"))
	require.Empty(t, other.requests(), "only subscribed endpoints")

	// To one endpoint, whatever it subscribes to.
	r = f.sk.Post("/v1/events/"+ev.ID+"/resend", map[string]any{"webhook_endpoint_id": id(otherEp)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	waitDelivered(t, f, id(otherEp), 1)
	require.Len(t, other.requests(), 1)
	require.Len(t, rc.requests(), 3)

	// Refusals change nothing.
	requireError(t, f.sk.Post("/v1/events/"+ev.ID+"/resend", map[string]any{"webhook_endpoint_id": "nope"}), http.StatusNotFound, "resource_missing", "webhook_endpoint_id")
	f.sk.Patch("/v1/webhook_endpoints/"+id(otherEp), map[string]any{"status": "disabled"})
	requireError(t, f.sk.Post("/v1/events/"+ev.ID+"/resend", map[string]any{"webhook_endpoint_id": id(otherEp)}), http.StatusNotFound, "resource_missing", "webhook_endpoint_id")
	requireError(t, f.sk.Post("/v1/events/"+ev.ID+"/resend", map[string]any{"webhook_endpoint_id": 5}), http.StatusBadRequest, "parameter_invalid", "webhook_endpoint_id")
	requireError(t, f.sk.Post("/v1/events/00000000-0000-7000-8000-000000000000/resend", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post("/v1/events/"+ev.ID+"/resend", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Post("/v1/events/"+ev.ID+"/resend", nil), http.StatusForbidden, "forbidden", "")
	require.Len(t, deliveries(t, f, id(ep)), 2)
}
