package catalog

import (
	"time"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// checkCustomerUpdate is a customer update's check before the
// transaction. The check reads the stored customer (an ssn or a
// date_of_birth cannot be removed once set; the merged metadata's size)
// and the time (a date_of_birth not in the future). Its problems are
// refused here when they are the same whatever the customer turns out to
// be: with or without an ssn and a date of birth on file, at any time,
// with any stored metadata (an update setting no key). Otherwise the
// write checks them on the locked customer, every problem at once.
func checkCustomerUpdate(in *models.UpdateCustomerInput) error {
	if op.SetsMetadata(in.Metadata) {
		return nil
	}
	set := "set"
	bare, onFile := &models.Customer{}, &models.Customer{SSNLastFour: &set, DateOfBirth: &set}
	stored := func(c *models.Customer) error {
		return op.AtAnyTime(func(now time.Time) error { return in.Validate(c, now).Err() })()
	}
	return op.Settled(stored(bare), stored(onFile))
}
