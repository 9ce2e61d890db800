package resolvers

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
)

// The edges behind fields that name another object by id (BankAccount.customerId
// and BankAccount.customer, and so on): each loads through the object's node
// loader, and the look-ahead reads it for a whole level of parents at once.
var (
	_ = edge(customerLoader, "customer", func(b *models.BankAccount) string { return idKey(b.CustomerID) })
	_ = edge(chargeIntentLoader, "chargeIntent", func(d *models.Dispute) string { return idKey(d.ChargeIntentID) })
	_ = edge(chargeIntentLoader, "chargeIntent", func(r *models.Refund) string { return idKey(r.ChargeIntentID) })
	_ = edge(accountLoader, "account", func(r *models.Refund) string { return idKey(r.AccountID) })
	_ = edge(customerLoader, "customer", func(r *models.Refund) string { return idKey(r.CustomerID) })
	_ = edge(accountLoader, "account", func(d *models.Dispute) string { return idKey(d.AccountID) })
	_ = edge(customerLoader, "customer", func(d *models.Dispute) string { return idKey(d.CustomerID) })
	_ = edge(promotionCodeLoader, "promotionCode", func(v *models.CodeValidation) string { return idKey(v.PromotionCodeID) })
	_ = edge(couponLoader, "coupon", func(v *models.CodeValidation) string { return idKey(v.CouponID) })
	_ = edge(disputeLoader, "dispute", func(d *models.DisputeDocument) string { return d.DisputeID.String() })
	_ = edge(invoiceLoader, "invoice", func(l *models.InvoiceLineItem) string { return l.InvoiceID.String() })
	_ = edge(billingMeterLoader, "meter", func(l *models.InvoiceLineItem) string { return idKey(l.MeterID) })
	_ = edge(paymentMethodLoader, "payoutPaymentMethod", func(a *models.Account) string { return idKey(visiblePayoutMethod(a)) })
	_ = edge(feePlanLoader, "transferFeePlan", func(p *models.Payout) string { return idKey(p.TransferFeePlanID) })
	_ = edge(subscriptionLoader, "subscription", func(p *models.SubscriptionPhase) string { return p.SubscriptionID.String() })
)

// visiblePayoutMethod is the account's payout payment method where the
// caller may see it: Account.payoutPaymentMethod follows the visibility of
// payoutPaymentMethodId.
func visiblePayoutMethod(a *models.Account) *uuid.UUID {
	if a.Visibility() != models.VisibleAll {
		return nil
	}
	return a.PayoutPaymentMethodID
}
