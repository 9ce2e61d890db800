package catalog

import (
	"context"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates an active customer and announces it. The input is
// checked before the write, at the kit's time (the date of birth's rules).
func (cs *Customers) Create(ctx context.Context, in *models.CreateCustomerInput) (*models.Customer, error) {
	spec := op.Spec{Name: "customer.create", Allow: secretOnly, Params: in,
		Check: func() error { return in.Validate(cs.svc.Clock.Now()) }}
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Customer, error) {
		return cs.Insert(ctx, w, in)
	})
}

// Insert creates the customer of a valid create request (Check)
// inside the caller's write and announces it: the one way a customer is
// made, whether by POST /v1/customers or by a charge intent's
// customer_data.
func (cs *Customers) Insert(ctx context.Context, w *op.W, in *models.CreateCustomerInput) (*models.Customer, error) {
	clock, err := w.AtTestClock(ctx, "test_clock", in.TestClock)
	if err != nil {
		return nil, err
	}
	now := w.Now()
	c := &models.Customer{TestClockID: clock, ID: ids.New(now), Email: strings.TrimSpace(*in.Email), Status: models.CustomerActive,
		Metadata: models.MergeMetadata(nil, in.Metadata), PaymentMethods: []*models.PaymentMethod{},
		Created: models.At(now), Updated: models.At(now)}
	c.Livemode = w.P.Scope.Livemode
	applyCustomer(c, (*models.UpdateCustomerInput)(in), now)
	if _, err := w.Tx.Insert(c).Exec(ctx); err != nil {
		return nil, err
	}
	if err := w.EmitObject(EventCustomerCreated, c.ID, c); err != nil {
		return nil, err
	}
	return c, nil
}
