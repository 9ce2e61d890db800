package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Block blocks the customer and every payment method it holds
// (spec doc 2 §3). Blocking a blocked customer changes nothing.
func (cs *Customers) Block(ctx context.Context, id string) (*models.Customer, error) {
	return cs.switchStatus(ctx, "customer.block", id, models.CustomerBlocked, EventCustomerBlocked,
		models.PaymentMethodActive, models.PaymentMethodBlocked)
}

// Unblock lets payment activity resume: the customer and the
// payment methods its block blocked are active again.
func (cs *Customers) Unblock(ctx context.Context, id string) (*models.Customer, error) {
	return cs.switchStatus(ctx, "customer.unblock", id, models.CustomerActive, EventCustomerUnblocked,
		models.PaymentMethodBlocked, models.PaymentMethodActive)
}

// switchStatus is the write of Block and Unblock, which mirror each
// other: the customer takes status, announced as typ, and its payment
// methods in status from take status to. A customer in status already
// changes nothing.
func (cs *Customers) switchStatus(ctx context.Context, name, id string, status models.CustomerStatus, typ events.Type,
	from, to models.PaymentMethodStatus) (*models.Customer, error) {
	spec := op.Spec{Name: name, Allow: secretOnly, Params: idParams{ID: id}}
	return cs.write(ctx, spec, id, false, func(ctx context.Context, cw *customerWrite) error {
		if cw.Customer.Status == status {
			return nil
		}
		cw.Customer.Status, cw.Announce = status, typ
		return cw.changeMethods(func(pm *models.PaymentMethod) bool {
			if pm.Status != from {
				return false
			}
			pm.Status = to
			return true
		})
	})
}

// Delete deletes the customer: it stays retrievable, rendered
// deleted, and refuses every further operation; its payment methods are
// detached and their card details removed (only brand and last four stay,
// for the merchant's records), and its running subscriptions are
// canceled at once (Hooks.PreDelete). Deleting a deleted customer answers the
// same and changes nothing.
func (cs *Customers) Delete(ctx context.Context, id string) (*models.DeletedCustomer, error) {
	spec := op.Spec{Name: "customer.delete", Allow: secretOnly, Params: idParams{ID: id}}
	c, err := cs.write(ctx, spec, id, true, func(ctx context.Context, cw *customerWrite) error {
		if cw.Customer.IsDeleted() {
			return nil
		}
		cw.Customer.Deleted, cw.Announce = models.At(cw.Now()), EventCustomerDeleted
		if err := cs.Hooks.PreDelete(ctx, cw.W, cw.Customer); err != nil {
			return err
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
	return &models.DeletedCustomer{Deleted: models.Deleted{ID: c.ID, Object: "customer", Deleted: true},
		Name: c.Name, Email: c.Email, Livemode: c.Livemode, Created: c.Created, Updated: c.Updated}, nil
}
