package invoices

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
)

// Invoices and subscriptions name their payer the same way and refuse the
// same payers; each reads the payer in its own statement (a subscription
// takes the payer's test clock along), then judges what it read here, so
// both answer with the same errors.

// refusePayerCustomer refuses the customer read as a payer: none read (one
// of another merchant or mode is answered like an unknown one) or deleted
// (spec doc 2 §3, §7.6).
func RefusePayerCustomer(c *models.Customer) error {
	switch {
	case c.ID == uuid.Nil:
		return apierr.FieldError("customer", "is not a customer of this merchant and mode")
	case c.IsDeleted():
		return apierr.InvalidState("The customer is deleted and refuses further operations")
	}
	return nil
}

// unknownPayerAccount refuses an account named as a payer that is not one
// of the caller's.
func UnknownPayerAccount() error {
	return apierr.FieldError("account", "is not an account of this merchant and mode")
}
