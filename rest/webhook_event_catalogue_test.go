package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// maxCodesPerEndpoint is how many event codes one endpoint may hold
// (models' limit of an endpoint's input).
const maxCodesPerEndpoint = 100

// Every declared event type is subscribable by name: an operation emits
// only declared types (W.Emit takes an events.Type), so every event the
// server emits is one an endpoint can subscribe to.
func TestWebhookEndpointsSubscribeToEveryDeclaredEventType(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var names []string
	for _, d := range events.Declarations() {
		names = append(names, d.Name())
	}
	require.NotEmpty(t, names)
	for start := 0; start < len(names); start += maxCodesPerEndpoint {
		chunk := names[start:min(start+maxCodesPerEndpoint, len(names))]
		e := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("https://example.com/hooks", chunk...))
		require.Len(t, e.EventCodes, len(chunk), "every declared type is kept")
	}
}

// These types were emitted but missing from the hand-kept catalogue, so a
// subscription to them was refused with 400; they are declared where they
// are emitted now, and an endpoint subscribes to each by name.
func TestWebhookEndpointsSubscribeToTypesOnceMissingFromTheCatalogue(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, code := range []string{"coupon.created", "coupon.updated", "promotion_code.created",
		"promotion_code.updated", "discount.created", "customer.blocked", "customer.unblocked",
		"product.phase.created", "product.phase.updated", "product.phase.deleted", "payment_method.created"} {
		r := f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "https://example.com/hooks", "event_codes": []string{code}})
		require.Equal(t, http.StatusCreated, r.Status, "%s: %s", code, r.Body)
		require.Equal(t, []any{code}, r.JSON()["event_codes"])
	}
}
