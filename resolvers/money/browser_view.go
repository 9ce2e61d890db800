package money

import (
	"context"
	"net/http"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
)

// forCaller is the transfer as the caller may see it: under a checkout
// secret (a buyer's browser) its payment methods are redacted
// (models.PaymentMethod.Redacted); every other caller sees it whole. It
// is applied to every transfer the area returns to a checkout secret —
// create, confirm, reads by id — and only after the write's events were
// rendered, so webhooks carry the whole transfer.
func forCaller(p *auth.Principal, t *models.Transfer) *models.Transfer {
	if t == nil || p == nil || p.Kind != auth.CheckoutSession {
		return t
	}
	t.SourcePaymentMethod = t.SourcePaymentMethod.Redacted()
	t.DestinationPaymentMethod = t.DestinationPaymentMethod.Redacted()
	return t
}

// replayedForCaller applies forCaller to what op.Write answered: a result
// replayed under an Idempotency-Key is decoded from its stored JSON, which
// was redacted already but decodes as a whole payment method with empty
// members.
func replayedForCaller(ctx context.Context, t *models.Transfer) *models.Transfer {
	return forCaller(auth.FromContext(ctx), t)
}

// BrowserDecline is how a declined charge reaches a checkout secret
// (API-DECISIONS §9): an error — 402, the decline code as its code, the
// buyer-safe message, details.transfer_id — although the decline itself
// was recorded like any other (committed with its event, replayed under
// the same Idempotency-Key). It is nil for any other caller or outcome.
// Both transports answer a create or confirm through it.
func BrowserDecline(ctx context.Context, t *models.Transfer) error {
	p := auth.FromContext(ctx)
	if t == nil || p == nil || p.Kind != auth.CheckoutSession || t.Status != models.TransferFailed || t.FailureCode == nil {
		return nil
	}
	msg := "Your payment was declined."
	if t.FailureMessage != nil {
		msg = *t.FailureMessage
	}
	return &apierr.Error{Status: http.StatusPaymentRequired, Code: *t.FailureCode, Message: msg,
		Details: map[string]any{"transfer_id": t.ID.String()}}
}
