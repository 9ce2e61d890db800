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

// CreateProduct creates an active product (one_time unless said
// otherwise).
func (s *Service) CreateProduct(ctx context.Context, in *models.ProductInput) (*models.Product, error) {
	spec := op.Spec{Name: "product.create", Allow: secretOnly, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Product, error) {
		now := w.Now()
		f := in.Validate(true)
		pr := &models.Product{ID: ids.New(now), PurchaseType: models.PurchaseOneTime, Active: true,
			Metadata: models.Metadata{}, Created: models.At(now), Updated: models.At(now)}
		in.ApplyTo(pr, f)
		if err := f.Err(); err != nil {
			return nil, err
		}
		if _, err := w.Tx.Insert(pr).Exec(ctx); err != nil {
			return nil, err
		}
		raw, err := events.Render(pr)
		if err != nil {
			return nil, err
		}
		w.Emit(EventProductCreated, pr.ID, raw, nil)
		return pr, nil
	})
}

type updateProductParams struct {
	ID    string               `json:"id"`
	Input *models.ProductInput `json:"input"`
}

// UpdateProduct merges a partial update into the product; an update that
// changes nothing writes nothing.
func (s *Service) UpdateProduct(ctx context.Context, id string, in *models.ProductInput) (*models.Product, error) {
	spec := op.Spec{Name: "product.update", Allow: secretOnly, Params: updateProductParams{ID: id, Input: in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Product, error) {
		pr, err := selectProduct(ctx, w.Tx, id, true)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(pr)
		if err != nil {
			return nil, err
		}
		f := in.Validate(false)
		in.ApplyTo(pr, f)
		if err := f.Err(); err != nil {
			return nil, err
		}
		previous := pr.Updated
		pr.Updated = models.At(w.Now())
		after, err := events.Render(pr)
		if err != nil {
			return nil, err
		}
		prev, err := events.PreviousAttributes(before, after)
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

// DeleteProduct deletes the product with its phases. A product that
// something has billed (charges, subscriptions, invoice lines: rows that
// refer to it) cannot be deleted: the database refuses, and the answer is
// 422 product_has_charges.
func (s *Service) DeleteProduct(ctx context.Context, id string) (*models.Deleted, error) {
	spec := op.Spec{Name: "product.delete", Allow: secretOnly, Params: idParams{ID: id}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Deleted, error) {
		pr, err := selectProduct(ctx, w.Tx, id, true)
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
		raw, err := events.Render(pr)
		if err != nil {
			return nil, err
		}
		w.Emit(EventProductDeleted, pr.ID, raw, nil)
		return &models.Deleted{ID: pr.ID, Object: "product", Deleted: true}, nil
	})
}
