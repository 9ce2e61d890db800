package invoices

import (
	"context"
	"fmt"
	"strings"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Lines change only while their invoice is a draft (spec doc 2 §3, §7.2):
// adding or editing one on an issued invoice, or removing one, is 422
// invalid_state, and the message says when the invoice is paid. Each change
// runs under the invoice's row lock and rewrites the invoice's total as
// the sum of its lines read after the lock; the database checks the sum
// again at commit.

type lineParams struct {
	Invoice string                `json:"invoice"`
	ID      string                `json:"id,omitempty"`
	Input   *models.LineItemInput `json:"input,omitempty"`
}

// Create adds a product to a draft invoice, at the product's default
// price.
func (ls *LineItems) Create(ctx context.Context, invoiceID string, in *models.LineItemInput) (*models.InvoiceLineItem, error) {
	spec := op.Spec{Name: "invoice_line_item.create", Allow: secretOnly, Params: lineParams{Invoice: invoiceID, Input: in},
		Check: func() error { return in.Validate(true) }}
	return ls.write(ctx, spec, invoiceID, changedMember(in), func(ctx context.Context, w *op.W, inv *models.Invoice) (*models.InvoiceLineItem, error) {
		if len(inv.LineItems) >= models.MaxInvoiceLineItems {
			return nil, apierr.Rule("invoice_line_item_limit_reached",
				fmt.Sprintf("An invoice holds at most %d line items", models.MaxInvoiceLineItems), "", nil)
		}
		li, err := newLine(ctx, w, inv, in, "product")
		if err != nil {
			return nil, err
		}
		if _, err := w.Tx.Insert(li).Exec(ctx); err != nil {
			return nil, err
		}
		inv.LineItems = append(inv.LineItems, li)
		return li, emitLine(w, EventInvoiceLineItemCreated, li, nil)
	})
}

// Update changes a line's quantity (or its product, repriced at the new
// product's default price).
func (ls *LineItems) Update(ctx context.Context, invoiceID, id string, in *models.LineItemInput) (*models.InvoiceLineItem, error) {
	spec := op.Spec{Name: "invoice_line_item.update", Allow: secretOnly, Params: lineParams{Invoice: invoiceID, ID: id, Input: in},
		Check: func() error { return in.Validate(false) }}
	return ls.write(ctx, spec, invoiceID, changedMember(in), func(ctx context.Context, w *op.W, inv *models.Invoice) (*models.InvoiceLineItem, error) {
		li, err := findLine(inv.LineItems, id)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(li)
		if err != nil {
			return nil, err
		}
		if in.Product != nil {
			repriced, err := newLine(ctx, w, inv, in, "product")
			if err != nil {
				return nil, err
			}
			li.ProductID, li.Description, li.UnitAmountCents = repriced.ProductID, repriced.Description, repriced.UnitAmountCents
		}
		if in.Quantity != nil {
			li.Quantity = *in.Quantity
		}
		li.Updated = models.At(w.Now())
		if err := BoundLine(li, changedMember(in)); err != nil {
			return nil, err
		}
		after, prev, err := events.RenderChange(before, li)
		if err != nil || prev == nil {
			return li, err
		}
		if _, err := w.Tx.Update(li).Column("product_id", "description", "quantity", "unit_amount_cents", "updated").
			WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		w.Emit(EventInvoiceLineItemUpdated, li.ID, after, prev)
		return li, nil
	})
}

// Delete removes a line from a draft invoice. It answers {id, object,
// deleted: true}.
func (ls *LineItems) Delete(ctx context.Context, invoiceID, id string) (*models.Deleted, error) {
	spec := op.Spec{Name: "invoice_line_item.delete", Allow: secretOnly, Params: lineParams{Invoice: invoiceID, ID: id}}
	var gone *models.InvoiceLineItem
	_, err := ls.write(ctx, spec, invoiceID, "id", func(ctx context.Context, w *op.W, inv *models.Invoice) (*models.InvoiceLineItem, error) {
		li, err := findLine(inv.LineItems, id)
		if err != nil {
			return nil, err
		}
		if _, err := w.Tx.Delete(li).WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		kept := inv.LineItems[:0]
		for _, l := range inv.LineItems {
			if l.ID != li.ID {
				kept = append(kept, l)
			}
		}
		inv.LineItems, gone = kept, li
		return li, emitLine(w, EventInvoiceLineItemDeleted, li, nil)
	})
	if err != nil {
		return nil, err
	}
	return &models.Deleted{ID: gone.ID, Object: "invoice_line_item", Deleted: true}, nil
}

// write runs change on a draft invoice's lines under the invoice's lock,
// then rewrites the invoice's total as the sum of its lines (refused
// beyond the bound on money as a problem of member) and announces
// invoice.updated when it changed.
func (ls *LineItems) write(ctx context.Context, spec op.Spec, invoiceID, member string,
	change func(ctx context.Context, w *op.W, inv *models.Invoice) (*models.InvoiceLineItem, error)) (*models.InvoiceLineItem, error) {
	return op.Write(ctx, ls.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.InvoiceLineItem, error) {
		inv, err := LockInvoice(ctx, w, invoiceID)
		if err != nil {
			return nil, err
		}
		switch inv.Status {
		case models.InvoiceDraft:
		case models.InvoicePaid:
			return nil, apierr.InvalidState("The invoice is paid: its line items can no longer be added, changed or deleted")
		default:
			return nil, apierr.InvalidState("Line items can be added, changed or deleted only while the invoice is a draft (the invoice is " +
				string(inv.Status) + ")")
		}
		before, err := events.Render(inv)
		if err != nil {
			return nil, err
		}
		li, err := change(ctx, w, inv)
		if err != nil {
			return nil, err
		}
		if inv.Total, err = BoundTotal(inv.LineItems, member); err != nil {
			return nil, err
		}
		return li, save(ctx, w, inv, before, EventInvoiceUpdated)
	})
}

// newLine is a line of inv for the product in names (param is where the
// product was given, for its field error), at the product's default price
// and named after it. Not stored yet.
func newLine(ctx context.Context, w *op.W, inv *models.Invoice, in *models.LineItemInput, param string) (*models.InvoiceLineItem, error) {
	pr := new(models.Product)
	id, ok := ids.Parse(*in.Product)
	if ok {
		err := w.Tx.Select(pr).Column("id", "name", "default_price").Where("pr.id = ?", id).Scan(ctx)
		if err != nil && !store.IsNoRows(err) {
			return nil, err
		}
		ok = err == nil
	}
	if !ok {
		return nil, apierr.FieldError(param, "is not a product of this merchant and mode")
	}
	now := models.At(w.Now())
	li := &models.InvoiceLineItem{ID: ids.New(w.Now()), InvoiceID: inv.ID, ProductID: pr.ID, Description: pr.Name,
		UnitAmountCents: pr.DefaultPrice, UnitAmountCurrency: inv.Currency, Kind: models.LineItem, Created: now, Updated: now}
	if in.Quantity != nil {
		li.Quantity = *in.Quantity
	}
	li.SetScope(w.Tx.Scope())
	if err := BoundLine(li, strings.TrimSuffix(param, "product")+changedMember(in)); err != nil {
		return nil, err
	}
	return li, nil
}

// changedMember is the member of a line's input that sets its amount: its
// quantity when given, else its product (whose price it takes).
func changedMember(in *models.LineItemInput) string {
	if in == nil || in.Quantity != nil {
		return "quantity"
	}
	return "product"
}

// emitLine announces typ with the line as REST renders it.
func emitLine(w *op.W, typ events.Type, li *models.InvoiceLineItem, prev map[string]any) error {
	raw, err := events.Render(li)
	if err != nil {
		return err
	}
	w.Emit(typ, li.ID, raw, prev)
	return nil
}
