package catalog

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates an active product (one_time unless said otherwise).
// The product is built from the input, and checked, before the write.
func (ps *Products) Create(ctx context.Context, in *models.ProductInput) (*models.Product, error) {
	pr := &models.Product{PurchaseType: models.PurchaseOneTime, Active: true, Metadata: models.Metadata{}}
	spec := op.Spec{Name: "product.create", Allow: secretOnly, Params: in, Check: func() error {
		f := in.Validate(true)
		in.ApplyTo(pr, f)
		return f.Err()
	}}
	return op.Write(ctx, ps.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Product, error) {
		now := w.Now()
		pr.ID, pr.Created, pr.Updated = ids.New(now), models.At(now), models.At(now)
		if _, err := w.Tx.Insert(pr).Exec(ctx); err != nil {
			return nil, err
		}
		if err := w.EmitObject(EventProductCreated, pr.ID, pr); err != nil {
			return nil, err
		}
		return pr, nil
	})
}

type updateProductParams struct {
	ID    string               `json:"id"`
	Input *models.ProductInput `json:"input"`
}

// Update merges a partial update into the product; an update that
// changes nothing writes nothing.
func (ps *Products) Update(ctx context.Context, id string, in *models.ProductInput) (*models.Product, error) {
	spec := op.Spec{Name: "product.update", Allow: secretOnly, Params: updateProductParams{ID: id, Input: in},
		Check: func() error { return in.Validate(false).Err() }}
	return op.Write(ctx, ps.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Product, error) {
		pr, err := productTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(pr)
		if err != nil {
			return nil, err
		}
		// What the result must be (a recurring product's interval) depends
		// on the product: checked here, on the locked row.
		var f apierr.Fields
		in.ApplyTo(pr, &f)
		if err := f.Err(); err != nil {
			return nil, err
		}
		previous := pr.Updated
		pr.Updated = models.At(w.Now())
		after, prev, err := events.RenderChange(before, pr)
		if err != nil {
			return nil, err
		}
		if prev == nil && in.BillingCredits == nil {
			pr.Updated = previous
			return pr, nil
		}
		if _, err := w.Tx.Update(pr).Column("name", "description", "url", "shippable", "purchase_type", "recurring",
			"default_price", "billing_credits", "active", "image", "metadata", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		w.Emit(EventProductUpdated, pr.ID, after, prev)
		return pr, nil
	})
}

// Delete deletes the product with its phases. A product that
// something has billed (charges, subscriptions, invoice lines: rows that
// refer to it) cannot be deleted: the database refuses, and the answer is
// 422 product_has_charges.
func (ps *Products) Delete(ctx context.Context, id string) (*models.Deleted, error) {
	spec := op.Spec{Name: "product.delete", Allow: secretOnly, Params: idParams{ID: id}}
	return op.Write(ctx, ps.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Deleted, error) {
		pr, err := productTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if _, err := w.Tx.Delete(pr).WherePK().Exec(ctx); err != nil {
			if store.ForeignKeyViolation(err) {
				return nil, apierr.Rule("product_has_charges",
					"This product has charges or other billing records and cannot be deleted; set active to false instead", "id", nil)
			}
			return nil, err
		}
		if err := w.EmitObject(EventProductDeleted, pr.ID, pr); err != nil {
			return nil, err
		}
		return &models.Deleted{ID: pr.ID, Object: "product", Deleted: true}, nil
	})
}
