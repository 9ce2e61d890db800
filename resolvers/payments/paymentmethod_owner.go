package payments

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
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
		c, err := customerRows.Lock(ctx, w, *o.customer, op.LockUpdate)
		if err != nil {
			return missingAs(err, "customer")
		}
		if c.IsDeleted() {
			return apierr.InvalidState("The customer is deleted and refuses further operations")
		}
		pm.CustomerID, pm.AccountID = &c.ID, nil
		if c.Status == models.CustomerBlocked && pm.Status == models.PaymentMethodActive {
			pm.Status = models.PaymentMethodBlocked
		}
	case o.account != nil:
		a, err := accountRows.Find(ctx, w, *o.account)
		if err != nil {
			return missingAs(err, "account")
		}
		if a.Status == models.AccountStatusDisabled {
			return apierr.InvalidState("The account is disabled")
		}
		pm.AccountID, pm.CustomerID = &a.ID, nil
	}
	return nil
}

// customerRows and accountRows read the owners a payment method is
// attached to.
var (
	customerRows = &op.Table[models.Customer]{Resource: "customer", Referenced: true}
	accountRows  = &op.Table[models.Account]{Resource: "account"}
)

// refusePublicAttach refuses a publishable key that names an owner for the
// payment method it creates. The key is public (it sits in checkout
// pages), so anyone who learnt a customer's or an account's id could plant
// a card or a bank account on it; spec doc 2 §4.8: "wallet buttons create
// the payment method with the publishable key; the server attaches it".
// A publishable key creates payment methods unattached, and attaching
// takes the secret key (or an onboarding session's secret, onto its own
// account). Refused before the write path opens anything, like a
// credential of the wrong kind.
func refusePublicAttach(ctx context.Context, customer, account *string) error {
	p := auth.FromContext(ctx)
	if p == nil || p.Kind != auth.PublishableKey {
		return nil
	}
	param := "customer"
	switch {
	case customer != nil:
	case account != nil:
		param = "account"
	default:
		return nil
	}
	e := apierr.Forbidden("A publishable key creates payment methods unattached: leave out " + param +
		" and attach the payment method with the secret key (POST /v1/payment_methods/{id}/attach)")
	e.Param = param
	return e
}
