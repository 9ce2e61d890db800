package catalog

import (
	"context"
	"encoding/json"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// customerWrite is one change to an existing customer, made under the
// customer's row lock. A rule edits Customer (and its PaymentMethods) in
// memory and names the event that announces it; writeCustomer does the
// rest the same way for every rule.
type customerWrite struct {
	*op.W
	Customer *models.Customer
	// Announce is the event type of the change (customer.updated when
	// empty). A rule that changes nothing announces nothing.
	Announce events.Type
	// ChangedMethods are payment methods the rule changed; each is saved
	// and announced as payment_method.updated.
	ChangedMethods []*models.PaymentMethod
	// Always announces the change even when the rendering did not change.
	Always bool

	methods []*models.PaymentMethod // every payment method of the customer
	befores []methodChange          // renderings of ChangedMethods before
}

// idParams identify a write on one object for idempotency.
type idParams struct {
	ID string `json:"id"`
}

// write runs rule on the customer id through the write path: lock
// the customer, read the time, load its payment methods, render before,
// apply, render after, persist what changed and emit the events (the
// customer's with previous_attributes, then one per changed payment
// method). A deleted customer refuses every write but deletion (spec doc 2
// §7 rule 6).
func (cs *Customers) write(ctx context.Context, spec op.Spec, id string, allowDeleted bool,
	rule func(ctx context.Context, cw *customerWrite) error) (*models.Customer, error) {
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Customer, error) {
		c, err := customerRows.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if c.IsDeleted() && !allowDeleted {
			return nil, apierr.InvalidState("The customer is deleted and refuses further operations")
		}
		pms, err := customerPaymentMethods(ctx, w, c.ID)
		if err != nil {
			return nil, err
		}
		c.PaymentMethods = visibleMethods(pms)
		before, err := events.Render(c)
		if err != nil {
			return nil, err
		}
		cw := &customerWrite{W: w, Customer: c}
		cw.methods = pms
		if err := rule(ctx, cw); err != nil {
			return nil, err
		}
		return c, finishCustomer(ctx, cw, before)
	})
}

// visibleMethods are the payment methods a customer renders: not detached,
// not single-use wallet credentials.
func visibleMethods(pms []*models.PaymentMethod) []*models.PaymentMethod {
	out := []*models.PaymentMethod{}
	for _, pm := range pms {
		if pm.Status != models.PaymentMethodDetached && !pm.SingleUse {
			out = append(out, pm)
		}
	}
	return out
}

// finishCustomer persists and announces what the rule changed (nothing
// when the customer renders the same and the rule does not insist).
func finishCustomer(ctx context.Context, cw *customerWrite, before json.RawMessage) error {
	c := cw.Customer
	previousUpdated := c.Updated
	c.Updated = models.At(cw.Now())
	for _, pm := range cw.ChangedMethods {
		pm.Updated = c.Updated
	}
	c.PaymentMethods = visibleMethods(cw.methods)
	after, prev, err := events.RenderChange(before, c)
	if err != nil {
		return err
	}
	if prev == nil && !cw.Always {
		c.Updated = previousUpdated
		return nil
	}
	if _, err := cw.Tx.Update(c).Column("name", "email", "phone", "description", "status", "date_of_birth",
		"ssn_last_four", "billing_address", "shipping_address", "metadata", "deleted", "updated").
		WherePK().Exec(ctx); err != nil {
		return err
	}
	if err := saveMethodChanges(ctx, cw.W, cw.ChangedMethods); err != nil {
		return err
	}
	typ := cw.Announce
	if typ.IsZero() {
		typ = EventCustomerUpdated
	}
	cw.Emit(typ, c.ID, after, prev)
	return cw.announceMethods()
}
