package payments

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// owner is whom a payment method is attached to: a customer or an account.
type owner struct {
	customer, account *string
}

// attachTo makes pm belong to o (nothing when o is empty). A customer is
// locked, so that an attach and the customer's block or deletion happen one
// after the other: a method attached to a blocked customer is blocked, and
// a deleted customer refuses it. An account must exist and not be
// disabled.
func attachTo(ctx context.Context, w *op.W, pm *models.PaymentMethod, o owner) error {
	switch {
	case o.customer != nil:
		c, err := lockCustomer(ctx, w.Tx, *o.customer)
		if err != nil {
			return err
		}
		if c.IsDeleted() {
			return apierr.InvalidState("The customer is deleted and refuses further operations")
		}
		pm.CustomerID, pm.AccountID = &c.ID, nil
		if c.Status == models.CustomerBlocked && pm.Status == models.PaymentMethodActive {
			pm.Status = models.PaymentMethodBlocked
		}
	case o.account != nil:
		a, err := findAccount(ctx, w.Tx, *o.account)
		if err != nil {
			return err
		}
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled")
		}
		pm.AccountID, pm.CustomerID = &a.ID, nil
	}
	return nil
}

func lockCustomer(ctx context.Context, t *store.Tenant, id string) (*models.Customer, error) {
	missing := apierr.NotFound("customer", id)
	missing.Param = "customer"
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, missing
	}
	c := new(models.Customer)
	if err := t.Select(c).Column("id", "status", "deleted").Where("cu.id = ?", uid).For("UPDATE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, missing
		}
		return nil, err
	}
	return c, nil
}

func findAccount(ctx context.Context, t *store.Tenant, id string) (*models.Account, error) {
	missing := apierr.NotFound("account", id)
	missing.Param = "account"
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, missing
	}
	a := new(models.Account)
	if err := t.Select(a).Column("id", "status").Where("a.id = ?", uid).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, missing
		}
		return nil, err
	}
	return a, nil
}
