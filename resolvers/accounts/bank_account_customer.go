package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// customerRows reads the customers bank accounts are linked for; the
// customers themselves belong to the catalog area.
var customerRows = &op.Table[models.Customer]{Resource: "customer", Referenced: true}

// createForCustomer links a bank account for the customer named by
// customer_id (secret key, spec doc 1 §4.9). The customer's row lock
// serializes its links (one bank account per fingerprint and customer); a
// deleted customer refuses further operations (spec doc 2 §3). A link
// token belongs to an account and is refused here; the sandbox processor
// tokens work. Nothing else changes: a customer has no requirements.
func (bs *BankAccounts) createForCustomer(ctx context.Context, spec op.Spec, in *models.CreateBankAccountInput) (*models.BankAccount, error) {
	return op.Write(ctx, bs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.BankAccount, error) {
		c, err := customerRows.Lock(ctx, w, *in.CustomerID, op.LockUpdate)
		if err != nil {
			if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
				e.Param = "customer_id"
			}
			return nil, err
		}
		if c.IsDeleted() {
			return nil, apierr.InvalidState("The customer is deleted and refuses further operations")
		}
		return bs.link(ctx, w, in, c.ID.String(), "customer_id", func(ba *models.BankAccount) { ba.CustomerID = &c.ID })
	})
}
