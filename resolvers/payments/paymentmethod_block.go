package payments

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Block stops one payment method from being charged (status `blocked`,
// spec doc 2 §2.3) without touching its owner, as the real service's
// POST /v1/payment_methods/{id}/block does. Blocking a blocked method
// changes nothing; a detached one is final and refuses it. An account's
// blocked card no longer counts as its active card (account_cards.go).
func (pms *PaymentMethods) Block(ctx context.Context, id string) (*models.PaymentMethod, error) {
	spec := op.Spec{Name: "payment_method.block", Allow: secretOnly, Params: map[string]string{"id": id}}
	return pms.write(ctx, spec, id, models.EventPaymentMethodBlocked, func(ctx context.Context, w *op.W, pm *models.PaymentMethod) error {
		if pm.Status == models.PaymentMethodDetached {
			return apierr.InvalidState("A detached payment method cannot be blocked")
		}
		pm.Status = models.PaymentMethodBlocked
		return nil
	})
}

// Unblock makes a blocked payment method usable again. A method whose
// customer is blocked stays blocked with it (the customer's unblock lifts
// both, spec doc 2 §3), so unblocking it alone is refused; the customer is
// locked as an attach locks it, so a block of the customer and this
// unblock happen one after the other. Unblocking an active method changes
// nothing; a detached one refuses it.
func (pms *PaymentMethods) Unblock(ctx context.Context, id string) (*models.PaymentMethod, error) {
	spec := op.Spec{Name: "payment_method.unblock", Allow: secretOnly, Params: map[string]string{"id": id}}
	return pms.write(ctx, spec, id, models.EventPaymentMethodUnblocked, func(ctx context.Context, w *op.W, pm *models.PaymentMethod) error {
		switch pm.Status {
		case models.PaymentMethodDetached:
			return apierr.InvalidState("A detached payment method cannot be unblocked")
		case models.PaymentMethodActive:
			return nil
		}
		if pm.CustomerID != nil {
			c, err := customerRows.Lock(ctx, w, pm.CustomerID.String(), op.LockUpdate)
			if err != nil {
				return err
			}
			if c.Status == models.CustomerBlocked {
				return apierr.InvalidState("The payment method's customer is blocked; unblock the customer to unblock its payment methods")
			}
		}
		pm.Status = models.PaymentMethodActive
		return nil
	})
}
