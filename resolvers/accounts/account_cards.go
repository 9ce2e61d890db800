package accounts

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// An account's payment_method.card requirement (card_verification,
// card_send, card_receive) is met while an active card is attached to it
// (models.PaymentMethod.CardAccount). The fact is kept on the account
// (Verification.ActiveCard), so reads of accounts, one or a page, cost no
// statement for it; the payment method writes that can change it call
// LockAccountForCards and CardsChanged inside their own write, which
// recompute it from the payment_methods table under the account's lock and
// move the capabilities like any other requirement change.

// LockAccountForCards takes the row lock of the account id in the running
// write w, before the write reads its time, so that the account's stamps
// and events follow commit order (see lockAccount). An id that names no
// account of the caller's is left alone: the payment method write answers
// it as it would have.
func (as *Accounts) LockAccountForCards(ctx context.Context, w *op.W, accountID string) error {
	_, err := accountRows.Lock(ctx, w, accountID, op.LockUpdate)
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
		return nil
	}
	return err
}

// CardsChanged re-evaluates the card requirement of the account in the
// running write w, after changed (a payment method the write created or
// changed, not necessarily persisted yet) gained or lost it: the fact is
// recomputed from the account's cards, and capabilities that it completes
// activate (capability.activated, account.activated) and the change is
// announced as account.updated, as for every requirement. Active
// capabilities stay active when the last card goes (a capability never
// returns to pending by itself: spec doc 1 §3); pending ones ask for
// payment_method.card again.
func (as *Accounts) CardsChanged(ctx context.Context, w *op.W, accountID uuid.UUID, changed *models.PaymentMethod) error {
	s := as.svc
	_, err := s.changeAccount(ctx, w, accountID.String(), func(ctx context.Context, aw *accountWrite) error {
		has, err := hasActiveCard(ctx, aw.Tx, accountID, changed)
		if err != nil {
			return err
		}
		aw.Account.Verification.ActiveCard = has
		return nil
	})
	return err
}

// hasActiveCard reports whether an active card is attached to the
// account: changed as the write left it in memory, or another one as
// stored.
func hasActiveCard(ctx context.Context, t *store.Tenant, accountID uuid.UUID, changed *models.PaymentMethod) (bool, error) {
	if a := changed.CardAccount(); a != nil && *a == accountID {
		return true, nil
	}
	return t.Select((*models.PaymentMethod)(nil)).
		Where("pm.account_id = ?", accountID).
		Where("pm.type = ?", models.PaymentMethodCard).
		Where("pm.status = ?", models.PaymentMethodActive).
		Where("NOT pm.single_use").
		Where("pm.id <> ?", changed.ID).
		Exists(ctx)
}
