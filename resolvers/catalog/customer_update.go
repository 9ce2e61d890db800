package catalog

import (
	"context"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

type updateCustomerParams struct {
	ID    string                      `json:"id"`
	Input *models.UpdateCustomerInput `json:"input"`
}

// Update merges a partial update into the customer. ssn and
// date_of_birth can be replaced but not removed once set.
func (cs *Customers) Update(ctx context.Context, id string, in *models.UpdateCustomerInput) (*models.Customer, error) {
	spec := op.Spec{Name: "customer.update", Allow: secretOnly, Params: updateCustomerParams{ID: id, Input: in},
		Check: func() error { return checkCustomerUpdate(in) }}
	return cs.write(ctx, spec, id, false, func(ctx context.Context, cw *customerWrite) error {
		// Against the stored customer and its time: what
		// checkCustomerUpdate could not settle before the transaction.
		if err := in.Validate(cw.Customer, cw.Now()).Err(); err != nil {
			return err
		}
		if in.Email != nil {
			cw.Customer.Email = strings.TrimSpace(*in.Email)
		}
		applyCustomer(cw.Customer, in, cw.Now())
		// The SSN is never rendered, so replacing it changes no rendering:
		// it is still a change to announce.
		cw.Always = in.SSN != nil && *in.SSN != ""
		return nil
	})
}

// applyCustomer sets the members in carries (empty strings clear the
// clearable text members; ssn and date_of_birth were validated).
func applyCustomer(c *models.Customer, in *models.UpdateCustomerInput, now time.Time) {
	setText(&c.Name, in.Name)
	setText(&c.Description, in.Description)
	if in.Phone != nil {
		if *in.Phone == "" {
			c.Phone = nil
		} else if e164, ok := models.CustomerPhone(*in.Phone); ok {
			c.Phone = &e164
		}
	}
	if in.SSN != nil && *in.SSN != "" {
		last := models.SSNLastFour(*in.SSN)
		c.SSNLastFour = &last
	}
	if in.DateOfBirth != nil && *in.DateOfBirth != "" {
		dob := *in.DateOfBirth
		c.DateOfBirth = &dob
	}
	if in.BillingAddress != nil {
		c.BillingAddress = models.AddressFrom(in.BillingAddress, c.BillingAddress, models.AddressBilling, ids.New(now), c.Livemode)
	}
	if in.ShippingAddress != nil {
		c.ShippingAddress = models.AddressFrom(in.ShippingAddress, c.ShippingAddress, models.AddressShipping, ids.New(now), c.Livemode)
	}
	if in.Metadata != nil {
		c.Metadata = models.MergeMetadata(c.Metadata, in.Metadata)
	}
}

// setText sets *dst from v: nil leaves it, "" clears it.
func setText(dst **string, v *string) {
	switch {
	case v == nil:
	case *v == "":
		*dst = nil
	default:
		s := *v
		*dst = &s
	}
}
