package usage

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create grants a payer a pool of credits for a product: units of the
// usage of the meters the product prices, applied by the payer's usage
// invoices made before expires (on the payer's clock, which must not have
// reached it yet). Statements: the payer with its clock, the product, the
// insert.
func (cs *BillingCredits) Create(ctx context.Context, in *models.CreateBillingCreditInput) (*models.BillingCredit, error) {
	spec := op.Spec{Name: "billing_credit.create", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingCredit, error) {
		payer, err := payerAtClock(ctx, w, in.Customer, in.Account)
		if err != nil {
			return nil, err
		}
		product, err := pricingProduct(ctx, w, *in.Product)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		if !in.Expires.Time.After(now) {
			return nil, apierr.FieldError("expires", "must be after the payer's current time")
		}
		c := &models.BillingCredit{ID: ids.New(now), Customer: payer.CustomerID, Account: payer.AccountID, Product: product,
			Allocation: *in.BillingCredits, Used: "0", Limited: in.Limited != nil && *in.Limited,
			Expires: models.At(in.Expires.Time), Metadata: models.MergeMetadata(nil, in.Metadata),
			Created: models.At(now), Updated: models.At(now), ClockTime: payer.ClockTime}
		if _, err := w.Tx.Insert(c).Exec(ctx); err != nil {
			return nil, err
		}
		c.Derive(now)
		return c, nil
	})
}
