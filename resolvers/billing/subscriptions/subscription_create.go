package subscriptions

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/billing/calendar"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create subscribes exactly one payer, a customer or an account, to a
// recurring, active product, and bills its first period at once
// (API-DECISIONS §7): the invoice (subscription_create) is issued and
// charged, and the subscription is active when it is paid, incomplete
// when the charge is declined. A payer with no payment method to charge
// is 422 payment_method_missing and nothing is created. Everything happens
// at the payer's test clock time when it has one.
func (ss *Subscriptions) Create(ctx context.Context, in *models.CreateSubscriptionInput) (*models.Subscription, error) {
	spec := op.Spec{Name: "subscription.create", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Subscription, error) {
		sub := &models.Subscription{Currency: in.CurrencyOf(), Quantity: 1, Description: in.Description,
			ProrationBehavior: in.BehaviorOf(), Metadata: models.MergeMetadata(nil, in.Metadata)}
		if err := subscriptionPayer(ctx, w, sub, in.Customer, in.Account); err != nil {
			return nil, err
		}
		if err := w.AtBoundClock(ctx, sub.TestClockID); err != nil {
			return nil, err
		}
		pr, cal, err := recurringProduct(ctx, w, *in.Product)
		if err != nil {
			return nil, err
		}
		if in.DefaultPaymentMethod != nil {
			if sub.DefaultPaymentMethodID, err = payerMethod(ctx, w, sub, *in.DefaultPaymentMethod); err != nil {
				return nil, err
			}
		}
		now := w.Now()
		if cal, err = calendar.New(now, cal.Interval()); err != nil {
			return nil, err
		}
		period := cal.Period(0)
		start, end := models.At(period.Start), models.At(period.End)
		sub.ID, sub.Status, sub.ProductID = ids.New(now), models.SubscriptionIncomplete, pr.ID
		sub.Anchor, sub.CurrentPeriodStart, sub.CurrentPeriodEnd = models.At(now), &start, &end
		sub.Created, sub.Updated = models.At(now), models.At(now)
		if _, err := w.Tx.Insert(sub).Exec(ctx); err != nil {
			return nil, err
		}
		phases, err := copyPhases(ctx, w, sub, pr.ID)
		if err != nil {
			return nil, err
		}
		price, err := periodPrice(phases, inForce(phases, 0), pr.DefaultPrice, sub.Quantity)
		if err != nil {
			return nil, err
		}
		inv, err := ss.svc.Invoices.billSubscription(ctx, w, sub, models.BillingSubscriptionCreate,
			[]billLine{periodLine(sub, pr, price, period.Start, period.End)}, false)
		if err != nil {
			return nil, err
		}
		sub.LatestInvoiceID = &inv.ID
		if inv.Status == models.InvoicePaid {
			sub.Status, sub.PeriodAmountCharged = models.SubscriptionActive, price
		}
		out, err := saveSubscription(ctx, w, sub, nil)
		if err != nil || !out.IsCustomerOwned() {
			return out, err
		}
		if err := emitSubscription(w, EventSubscriptionCreated, out); err != nil {
			return nil, err
		}
		if out.Status == models.SubscriptionIncomplete {
			return out, emitSubscription(w, EventSubscriptionIncomplete, out)
		}
		return out, nil
	})
}

// subscriptionPayer makes the customer or the account named the
// subscription's payer, with its test clock: one of the caller's (another
// tenant's is unknown), and a customer not deleted (spec doc 2 §3).
func subscriptionPayer(ctx context.Context, w *op.W, sub *models.Subscription, customer, account *string) error {
	if customer != nil {
		c := new(models.Customer)
		if id, ok := ids.Parse(*customer); ok {
			err := w.Tx.Select(c).Column("id", "deleted").ColumnExpr("cu.test_clock_id").Where("cu.id = ?", id).
				Scan(ctx, &c.ID, &c.Deleted, &sub.TestClockID)
			if err != nil && !store.IsNoRows(err) {
				return err
			}
		}
		if err := invoices.RefusePayerCustomer(c); err != nil {
			return err
		}
		sub.CustomerID = &c.ID
		return nil
	}
	a := new(models.Account)
	if id, ok := ids.Parse(*account); ok {
		err := w.Tx.Select(a).Column("id").ColumnExpr("a.test_clock_id").Where("a.id = ?", id).Scan(ctx, &a.ID, &sub.TestClockID)
		if err != nil && !store.IsNoRows(err) {
			return err
		}
	}
	if a.ID == uuid.Nil {
		return invoices.UnknownPayerAccount()
	}
	sub.AccountID = &a.ID
	return nil
}

// recurringProduct reads the product a subscription bills: one of the
// tenant's, recurring and active (else 422 on product), with its
// calendar's interval.
func recurringProduct(ctx context.Context, w *op.W, id string) (*models.Product, calendar.Calendar, error) {
	var pr *models.Product
	if v, ok := ids.Parse(id); ok {
		var err error
		if pr, err = invoices.ProductRow(ctx, w.Tx, v); err != nil {
			return nil, calendar.Calendar{}, err
		}
	}
	switch {
	case pr == nil:
		return nil, calendar.Calendar{}, apierr.FieldError("product", "is not a product of this merchant and mode")
	case pr.PurchaseType != models.PurchaseRecurring || pr.Recurring == nil:
		return nil, calendar.Calendar{}, apierr.FieldError("product", "must be a recurring product")
	case !pr.Active:
		return nil, calendar.Calendar{}, apierr.FieldError("product", "is archived and cannot be subscribed to")
	}
	iv, err := calendar.OfRecurring(string(pr.Recurring.Interval))
	if err != nil {
		return nil, calendar.Calendar{}, apierr.FieldError("product", "has no billing interval")
	}
	cal, err := calendar.New(time.Unix(0, 0), iv)
	return pr, cal, err
}

// copyPhases copies the product's phases to the subscription, which owns
// them from then on; the phase pricing period 0 starts now.
func copyPhases(ctx context.Context, w *op.W, sub *models.Subscription, productID uuid.UUID) ([]*models.SubscriptionPhase, error) {
	var src []*models.ProductPhase
	if err := w.Tx.Select(&src).Where("ph.product_id = ?", productID).OrderExpr("ph.ordinal").Scan(ctx); err != nil {
		return nil, err
	}
	if len(src) == 0 {
		return nil, nil
	}
	now := w.Now()
	phases := make([]*models.SubscriptionPhase, len(src))
	for i, p := range src {
		phases[i] = &models.SubscriptionPhase{ID: ids.New(now), SubscriptionID: sub.ID, PhaseTerms: p.PhaseTerms,
			Currency: p.Currency, Created: models.At(now), Updated: models.At(now)}
	}
	if first := inForce(phases, 0); first >= 0 {
		phases[first].StartedAt = models.At(now)
	}
	_, err := store.InsertModel(w.Tx, phases).Exec(ctx)
	return phases, err
}

// periodLine is the line billing one period of the subscription's
// product at price (the quantity's total).
func periodLine(sub *models.Subscription, pr *models.Product, price int64, start, end time.Time) billLine {
	return billLine{Kind: models.LineSubscription, ProductID: pr.ID, Description: pr.Name, Quantity: sub.Quantity,
		Amount: price / int64(sub.Quantity), Start: &start, End: &end}
}
