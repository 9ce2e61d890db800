package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// methodChange is a change to one payment method a customer write makes:
// the method and its rendering before.
type methodChange struct {
	pm     *models.PaymentMethod
	before []byte
}

// changeMethods applies edit to every payment method of the customer for
// which it reports a change, recording each for saving and announcing.
func (cw *customerWrite) changeMethods(edit func(pm *models.PaymentMethod) bool) error {
	for _, pm := range cw.methods {
		before, err := events.Render(pm)
		if err != nil {
			return err
		}
		if edit(pm) {
			cw.ChangedMethods = append(cw.ChangedMethods, pm)
			cw.befores = append(cw.befores, methodChange{pm: pm, before: before})
		}
	}
	return nil
}

// saveMethodChanges writes the changed payment methods in one statement.
func saveMethodChanges(ctx context.Context, w *op.W, pms []*models.PaymentMethod) error {
	if len(pms) == 0 {
		return nil
	}
	_, err := w.Tx.Update(&pms).Column("status", "card", "fingerprint", "updated").Bulk().Exec(ctx)
	return err
}

// announceMethods emits payment_method.updated for each changed method,
// after the customer's own event.
func (cw *customerWrite) announceMethods() error {
	for _, ch := range cw.befores {
		after, prev, err := events.RenderChange(ch.before, ch.pm)
		if err != nil {
			return err
		}
		cw.Emit(models.EventPaymentMethodUpdated, ch.pm.ID, after, prev)
	}
	return nil
}
