package payments

import (
	"context"
	"fmt"

	"github.com/frame-oss/payments-server/internal/domain/card"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// write runs rule on one payment method under its row lock and
// announces the change as typ with previous_attributes. A rule that
// changes nothing writes and announces nothing. When the change attaches
// an active card to an account or takes one away, the account's card
// requirement is re-evaluated in the same write (account_cards.go).
func (pms *PaymentMethods) write(ctx context.Context, spec op.Spec, id string, typ events.Type,
	rule func(ctx context.Context, w *op.W, pm *models.PaymentMethod) error) (*models.PaymentMethod, error) {
	s := pms.svc
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.PaymentMethod, error) {
		pm, err := paymentMethodTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(pm)
		if err != nil {
			return nil, err
		}
		was := pm.CardAccount()
		if err := rule(ctx, w, pm); err != nil {
			return nil, err
		}
		moved := cardAccountsMoved(was, pm)
		if err := s.lockCardAccounts(ctx, w, moved); err != nil {
			return nil, err
		}
		previous := pm.Updated
		pm.Updated = models.At(w.Now())
		after, prev, err := events.RenderChange(before, pm)
		if err != nil {
			return nil, err
		}
		if prev == nil {
			pm.Updated = previous
			return pm, nil
		}
		if _, err := w.Tx.Update(pm).Column("status", "customer_id", "account_id", "billing", "card", "updated").
			WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		w.Emit(typ, pm.ID, after, prev)
		if err := s.cardsChanged(ctx, w, moved, pm); err != nil {
			return nil, err
		}
		return pm, nil
	})
}

type attachParams struct {
	ID    string                           `json:"id"`
	Input *models.AttachPaymentMethodInput `json:"input"`
}

// Attach attaches the method to exactly one customer or account.
// account_id is not a parameter: sending it is refused with the documented
// error (spec doc 2 §7 rule 3), before the write. A detached method cannot
// be attached again; one attached elsewhere must be detached first.
func (pms *PaymentMethods) Attach(ctx context.Context, id string, in *models.AttachPaymentMethodInput) (*models.PaymentMethod, error) {
	spec := op.Spec{Name: "payment_method.attach", Allow: secretOnly, Params: attachParams{ID: id, Input: in},
		Check: func() error { return checkAttach(in) }}
	return pms.write(ctx, spec, id, models.EventPaymentMethodAttached, func(ctx context.Context, w *op.W, pm *models.PaymentMethod) error {
		if pm.Status == models.PaymentMethodDetached {
			return apierr.InvalidState("A detached payment method cannot be attached again")
		}
		if (in.Customer != nil && pm.CustomerID != nil && pm.CustomerID.String() == *in.Customer) ||
			(in.Account != nil && pm.AccountID != nil && pm.AccountID.String() == *in.Account) {
			return nil
		}
		if pm.CustomerID != nil || pm.AccountID != nil {
			return apierr.InvalidState("The payment method is attached elsewhere; detach it first")
		}
		return attachTo(ctx, w, pm, owner{customer: in.Customer, account: in.Account})
	})
}

// Detach detaches the method for good: it can no longer be
// used nor attached again. Detaching a detached method changes nothing.
func (pms *PaymentMethods) Detach(ctx context.Context, id string) (*models.PaymentMethod, error) {
	spec := op.Spec{Name: "payment_method.detach", Allow: secretOnly, Params: map[string]string{"id": id}}
	return pms.write(ctx, spec, id, models.EventPaymentMethodDetached, func(ctx context.Context, w *op.W, pm *models.PaymentMethod) error {
		pm.Status = models.PaymentMethodDetached
		return nil
	})
}

// checkAttach refuses an attach that does not name exactly one owner.
func checkAttach(in *models.AttachPaymentMethodInput) error {
	switch {
	case in.Customer == nil && in.Account == nil && in.AccountID != nil:
		return apierr.FieldError("account_id", "is not accepted: a customer or an account must be specified (send account)")
	case in.Customer == nil && in.Account == nil:
		return apierr.FieldError("customer", "a customer or an account must be specified")
	case in.Customer != nil && in.Account != nil:
		return apierr.FieldError("customer", "exactly one of customer or account must be specified")
	}
	return nil
}

type updateParams struct {
	ID    string                           `json:"id"`
	Input *models.UpdatePaymentMethodInput `json:"input"`
}

// Update changes a card's expiry or the billing address; the
// method must be attached to a customer (spec doc 2 §4.3).
func (pms *PaymentMethods) Update(ctx context.Context, id string, in *models.UpdatePaymentMethodInput) (*models.PaymentMethod, error) {
	spec := op.Spec{Name: "payment_method.update", Allow: secretOnly, Params: updateParams{ID: id, Input: in}}
	return pms.write(ctx, spec, id, models.EventPaymentMethodUpdated, func(ctx context.Context, w *op.W, pm *models.PaymentMethod) error {
		if pm.Status == models.PaymentMethodDetached {
			return apierr.InvalidState("A detached payment method cannot be updated")
		}
		if pm.CustomerID == nil {
			return apierr.InvalidState("The payment method must be attached to a customer to be updated")
		}
		var f apierr.Fields
		if in.Billing != nil {
			models.ValidateAddressInput(&f, in.Billing, "billing")
		}
		if (in.ExpMonth != nil || in.ExpYear != nil) && pm.Card == nil {
			f.Add("exp_month", "only cards have an expiry")
		}
		if err := f.Err(); err != nil {
			return err
		}
		if pm.Card != nil && (in.ExpMonth != nil || in.ExpYear != nil) && pm.Card.ExpMonth != nil && pm.Card.ExpYear != nil {
			var month, year int
			_, _ = fmt.Sscan(*pm.Card.ExpMonth, &month)
			_, _ = fmt.Sscan(*pm.Card.ExpYear, &year)
			if in.ExpMonth != nil {
				month = int(*in.ExpMonth)
			}
			if in.ExpYear != nil {
				year = int(*in.ExpYear)
			}
			exp, ok := card.ParseExpiry(month, year)
			switch {
			case !ok:
				return apierr.FieldError("exp_year", "must be the year's last two digits or the full year, with a month from 1 to 12")
			case exp.Expired(w.Now()):
				return apierr.FieldError("exp_year", "the card has expired")
			case exp.TooFar(w.Now()):
				return apierr.FieldError("exp_year", "is too far in the future")
			}
			c := *pm.Card
			m, y := fmt.Sprintf("%02d", exp.Month), fmt.Sprintf("%d", exp.Year)
			c.ExpMonth, c.ExpYear = &m, &y
			pm.Card = &c
		}
		if in.Billing != nil {
			pm.Billing = models.AddressFrom(in.Billing, pm.Billing, models.AddressBilling, ids.New(w.Now()), pm.Livemode)
		}
		return nil
	})
}
