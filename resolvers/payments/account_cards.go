package payments

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// AccountCards is what payment methods need of the accounts area: an
// account's payment_method.card requirement follows the active cards
// attached to it (API-DECISIONS §4b). The assembly (resolvers/areas) hands
// the accounts service in; this area does not import it.
type AccountCards interface {
	// LockAccountForCards takes the account's row lock before the write
	// reads its time (an unknown account is left alone).
	LockAccountForCards(ctx context.Context, w *op.W, accountID string) error
	// CardsChanged re-evaluates the account's card requirement after
	// changed gained or lost it, in the same write.
	CardsChanged(ctx context.Context, w *op.W, accountID uuid.UUID, changed *models.PaymentMethod) error
}

// cardAccountsMoved lists the accounts whose card requirement may change
// when a payment method that met it for was (nil: none) now meets it for
// pm.CardAccount(): none when nothing moved, else the one or two accounts.
func cardAccountsMoved(was *uuid.UUID, pm *models.PaymentMethod) []uuid.UUID {
	now := pm.CardAccount()
	switch {
	case was == nil && now == nil:
		return nil
	case was != nil && now != nil && *was == *now:
		return nil
	}
	var out []uuid.UUID
	for _, a := range []*uuid.UUID{was, now} {
		if a != nil {
			out = append(out, *a)
		}
	}
	return out
}

// lockCardAccounts locks the accounts before the write reads its time.
func (s *Service) lockCardAccounts(ctx context.Context, w *op.W, accounts []uuid.UUID) error {
	for _, a := range accounts {
		if err := s.accounts.LockAccountForCards(ctx, w, a.String()); err != nil {
			return err
		}
	}
	return nil
}

// cardsChanged re-evaluates the accounts' card requirement, after the
// payment method's own event so that the events read in causal order.
func (s *Service) cardsChanged(ctx context.Context, w *op.W, accounts []uuid.UUID, pm *models.PaymentMethod) error {
	for _, a := range accounts {
		if err := s.accounts.CardsChanged(ctx, w, a, pm); err != nil {
			return err
		}
	}
	return nil
}
