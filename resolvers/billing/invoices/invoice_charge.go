package invoices

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CodePaymentMethodMissing is the 422 of paying an invoice whose payer has
// no payment method to charge.
const CodePaymentMethodMissing = "payment_method_missing"

// chargeInvoice charges an invoice's total in the caller's write: it
// locks the payment method the invoice is charged on (invoiceMethod) and
// charges it through the money area's public charge operation
// (money.Service.ChargeMethod), so the charge and its journal are on the
// ledger like any transfer's. A subscription's invoice is charged through
// a charge intent naming the invoice and the subscription, which the
// charge names (the subscription's latest_charge_intent).
func (is *Invoices) chargeInvoice(ctx context.Context, w *op.W, inv *models.Invoice, pmID *uuid.UUID,
	desc *string) (*models.Charge, error) {
	pm, err := invoiceMethod(ctx, w, inv, pmID)
	if err != nil {
		return nil, err
	}
	return is.svc.Money.ChargeMethod(ctx, w, pm, money.MethodCharge{InvoiceID: inv.ID, SubscriptionID: inv.SubscriptionID,
		Amount: inv.Total, Currency: inv.Currency, Description: desc, CustomerID: inv.CustomerID, AccountID: inv.AccountID})
}

// invoiceMethod locks the payment method an invoice is charged on: the one
// named, which must be the payer's and active, or else the payer's default
// one, its newest active payment method.
func invoiceMethod(ctx context.Context, w *op.W, inv *models.Invoice, pmID *uuid.UUID) (*models.PaymentMethod, error) {
	pm := new(models.PaymentMethod)
	q := w.Tx.Select(pm)
	if inv.CustomerID != nil {
		q = q.Where("pm.customer_id = ?", *inv.CustomerID)
	} else {
		q = q.Where("pm.account_id = ?", *inv.AccountID)
	}
	if pmID != nil {
		q = q.Where("pm.id = ?", *pmID)
	} else {
		q = q.Where("pm.status = ?", models.PaymentMethodActive).OrderExpr("pm.created DESC, pm.id DESC").Limit(1)
	}
	if err := q.For("UPDATE").Scan(ctx); err != nil {
		if !store.IsNoRows(err) {
			return nil, err
		}
		if pmID != nil {
			return nil, apierr.FieldError("payment_method", "is not a payment method of the invoice's payer")
		}
		return nil, apierr.Rule(CodePaymentMethodMissing, "The invoice's payer has no active payment method to charge", "", nil)
	}
	if pm.Status != models.PaymentMethodActive {
		return nil, apierr.FieldError("payment_method", "is "+string(pm.Status)+" and cannot be used")
	}
	return pm, nil
}
