package webhooks

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/frame-oss/payments-server/internal/platform/tracing"
	"github.com/frame-oss/payments-server/models"
)

// postTraced is post as a span of the delivery job's trace
// (internal/platform/tracing): the endpoint, delivery and event by id and
// type, the attempt's number, the receiver's status. Neither the URL (it
// may carry the receiver's token) nor the body, the signatures or an
// error's text (a transport error names the URL) are recorded.
func (d *Delivery) postTraced(ctx context.Context, ep *models.WebhookEndpoint, del *models.WebhookDelivery, body []byte, signing signingSecrets, now time.Time) *models.WebhookAttempt {
	ctx, span := tracing.Tracer().Start(ctx, "webhook.deliver", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("webhook.endpoint_id", ep.ID.String()),
			attribute.String("webhook.delivery_id", del.ID.String()),
			attribute.String("webhook.event_id", del.EventID.String()),
			attribute.String("webhook.event_type", del.EventType),
			attribute.Int("webhook.attempt", del.AttemptCount+1)))
	defer span.End()
	at := d.post(ctx, ep, del, body, signing, now)
	if at.StatusCode != nil {
		span.SetAttributes(attribute.Int("http.response.status_code", *at.StatusCode))
	}
	if at.StatusCode == nil || *at.StatusCode < 200 || *at.StatusCode >= 300 {
		span.SetStatus(codes.Error, "delivery not accepted")
	}
	return at
}
