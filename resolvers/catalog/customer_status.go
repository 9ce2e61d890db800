package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Block blocks the customer and every payment method it holds
// (spec doc 2 §3). Blocking a blocked customer changes nothing.
func (cs *Customers) Block(ctx context.Context, id string) (*models.Customer, error) {
	spec := op.Spec{Name: "customer.block", Allow: secretOnly, Params: idParams{ID: id}}
	return cs.write(ctx, spec, id, false, func(ctx context.Context, cw *customerWrite) error {
		if cw.Customer.Status == models.CustomerBlocked {
			return nil
		}
		cw.Customer.Status, cw.Announce = models.CustomerBlocked, EventCustomerBlocked
		return cw.changeMethods(func(pm *models.PaymentMethod) bool {
			if pm.Status != models.PaymentMethodActive {
				return false
			}
			pm.Status = models.PaymentMethodBlocked
			return true
		})
	})
}

// Unblock lets payment activity resume: the customer and the
// payment methods its block blocked are active again.
func (cs *Customers) Unblock(ctx context.Context, id string) (*models.Customer, error) {
	spec := op.Spec{Name: "customer.unblock", Allow: secretOnly, Params: idParams{ID: id}}
	return cs.write(ctx, spec, id, false, func(ctx context.Context, cw *customerWrite) error {
		if cw.Customer.Status == models.CustomerActive {
			return nil
		}
		cw.Customer.Status, cw.Announce = models.CustomerActive, EventCustomerUnblocked
		return cw.changeMethods(func(pm *models.PaymentMethod) bool {
			if pm.Status != models.PaymentMethodBlocked {
				return false
			}
			pm.Status = models.PaymentMethodActive
			return true
		})
	})
}

// Delete deletes the customer: it stays retrievable, rendered
// deleted, and refuses every further operation; its payment methods are
// detached and their card details removed (only brand and last four stay,
// for the merchant's records), and its running subscriptions are
// canceled at once (OnDelete). Deleting a deleted customer answers the
// same and changes nothing.
func (cs *Customers) Delete(ctx context.Context, id string) (*models.Deleted, error) {
	spec := op.Spec{Name: "customer.delete", Allow: secretOnly, Params: idParams{ID: id}}
	c, err := cs.write(ctx, spec, id, true, func(ctx context.Context, cw *customerWrite) error {
		if cw.Customer.IsDeleted() {
			return nil
		}
		cw.Customer.Deleted, cw.Announce = models.At(cw.Now()), EventCustomerDeleted
		if cs.OnDelete != nil {
			if err := cs.OnDelete(ctx, cw.W, cw.Customer.ID); err != nil {
				return err
			}
		}
		return cw.changeMethods(func(pm *models.PaymentMethod) bool {
			if pm.Status == models.PaymentMethodDetached && pm.Fingerprint == nil {
				return false
			}
			pm.Status, pm.Fingerprint = models.PaymentMethodDetached, nil
			if pm.Card != nil {
				card := *pm.Card
				card.ExpMonth, card.ExpYear, card.Wallet = nil, nil, nil
				pm.Card = &card
			}
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	return &models.Deleted{ID: c.ID, Object: "customer", Deleted: true}, nil
}
