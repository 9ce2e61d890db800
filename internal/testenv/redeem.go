package testenv

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Redeem applies promotion codes as the flows that bill (transfers,
// charge intents, invoices) will: one write of the default merchant's
// sandbox through the write path, calling catalog.Discounts.Redeem. No
// endpoint redeems codes yet; tests of the redemption rules use this.
func (e *Env) Redeem(ctx context.Context, r catalog.Redemption) ([]*models.Discount, error) {
	p := &auth.Principal{Kind: auth.SecretKey, Merchant: e.Merchant, Scope: store.Scope{MerchantID: e.Merchant.ID}}
	ctx = auth.WithPrincipal(ctx, p)
	spec := op.Spec{Name: "test.redeem", Allow: []auth.Kind{auth.SecretKey}, Params: r}
	return op.Write(ctx, e.App.Services.Catalog.Kit, spec, func(ctx context.Context, w *op.W) ([]*models.Discount, error) {
		return e.Services.Catalog.Discounts.Redeem(ctx, w, r)
	})
}
