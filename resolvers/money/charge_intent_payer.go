package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A charge intent's payer is a customer or an account (or neither, until a
// payment method names one). Ids of another merchant or mode are answered
// like unknown ones, as field errors, the way a transfer answers an
// account_id (docs/payments.md).

// checkCustomer refuses a customer the intent cannot be charged to: not
// the caller's, deleted (spec doc 2 §7.6) or blocked (§3: payment activity
// prevented).
func checkCustomer(ctx context.Context, t *store.Tenant, id uuid.UUID) error {
	c := new(models.Customer)
	if err := t.Select(c).Column("id", "status", "deleted").Where("cu.id = ?", id).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return apierr.FieldError("customer", "is not a customer of this merchant and mode")
		}
		return err
	}
	switch {
	case c.IsDeleted():
		return apierr.InvalidState("The customer is deleted and refuses further operations")
	case c.Status == models.CustomerBlocked:
		return apierr.InvalidState("The customer is blocked: payment activity is prevented")
	}
	return nil
}

// checkAccount refuses an account that is not the caller's.
func checkAccount(ctx context.Context, t *store.Tenant, id uuid.UUID) error {
	n, err := t.Select((*models.Account)(nil)).Where("a.id = ?", id).Count(ctx)
	if err == nil && n == 0 {
		return apierr.FieldError("account", "is not an account of this merchant and mode")
	}
	return err
}

// setPayer makes the intent's payer the customer or the account given
// (after checking it), replacing the other.
func setPayer(ctx context.Context, t *store.Tenant, ci *models.ChargeIntent, customerID, accountID *uuid.UUID) error {
	switch {
	case customerID != nil:
		if err := checkCustomer(ctx, t, *customerID); err != nil {
			return err
		}
		ci.CustomerID, ci.AccountID = customerID, nil
	case accountID != nil:
		if err := checkAccount(ctx, t, *accountID); err != nil {
			return err
		}
		ci.AccountID, ci.CustomerID = accountID, nil
	}
	return nil
}

// intentMethod locks payment method id (its single-use consumption and the
// charge are serialized on the row, as for transfers) and checks that the
// intent may charge it: the caller's, active, and attached to the intent's
// payer or to nobody. An intent without a payer takes the method's owner
// as its payer — when the secret key asks: a browser holding an intent's
// client secret may charge only a method of the intent's payer or one of
// nobody's (a card it just created), never make someone's saved card pay.
func intentMethod(ctx context.Context, w *op.W, ci *models.ChargeIntent, id uuid.UUID, param string) (*models.PaymentMethod, error) {
	pm := new(models.PaymentMethod)
	if err := w.Tx.Select(pm).Where("pm.id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.FieldError(param, "is not a payment method of this merchant and mode")
		}
		return nil, err
	}
	if pm.Status != models.PaymentMethodActive {
		return nil, apierr.FieldError(param, "is "+string(pm.Status)+" and cannot be used")
	}
	if err := ownsMethod(ci, pm, param); err != nil {
		return nil, err
	}
	if ci.CustomerID == nil && ci.AccountID == nil && (pm.CustomerID != nil || pm.AccountID != nil) {
		if w.P.Kind != auth.SecretKey {
			return nil, apierr.FieldError(param, "belongs to someone who is not the charge intent's payer")
		}
		ci.CustomerID, ci.AccountID = pm.CustomerID, pm.AccountID
	}
	return pm, nil
}

// ownsMethod refuses a method attached to someone else than the intent's
// payer.
func ownsMethod(ci *models.ChargeIntent, pm *models.PaymentMethod, param string) error {
	switch {
	case ci.CustomerID != nil && (pm.AccountID != nil || (pm.CustomerID != nil && *pm.CustomerID != *ci.CustomerID)):
		return apierr.FieldError(param, "does not belong to the charge intent's customer")
	case ci.AccountID != nil && (pm.CustomerID != nil || (pm.AccountID != nil && *pm.AccountID != *ci.AccountID)):
		return apierr.FieldError(param, "does not belong to the charge intent's account")
	}
	return nil
}

// embedPayers fills the customer and account objects of intents (as a
// secret key sees them) in t: two statements at most whatever the number
// of intents, none for intents already holding their payer.
func (s *Service) embedPayers(ctx context.Context, t *store.Tenant, intents []*models.ChargeIntent) error {
	var customers, accounts []uuid.UUID
	for _, ci := range intents {
		if ci.CustomerID == nil {
			ci.Customer = nil
		} else if ci.Customer == nil || ci.Customer.ID != *ci.CustomerID {
			customers = append(customers, *ci.CustomerID)
		}
		if ci.AccountID == nil {
			ci.Account = nil
		} else if ci.Account == nil || ci.Account.ID != *ci.AccountID {
			accounts = append(accounts, *ci.AccountID)
		}
	}
	cs, err := catalog.CustomersIn(ctx, t, customers)
	if err != nil {
		return err
	}
	as, err := s.Accounts.Accounts.In(ctx, t, accounts)
	if err != nil {
		return err
	}
	for _, ci := range intents {
		if c, ok := cs[derefID(ci.CustomerID)]; ok {
			ci.Customer = c
		}
		if a, ok := as[derefID(ci.AccountID)]; ok {
			ci.Account = a
		}
	}
	return nil
}

func derefID(id *uuid.UUID) uuid.UUID {
	if id == nil {
		return uuid.Nil
	}
	return *id
}
