package invoices

import (
	"context"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a draft invoice for exactly one payer, a customer or an
// account, with the lines the body lists (each a product at its default
// price). Its billing_reason is manual; its total the sum of its lines.
func (is *Invoices) Create(ctx context.Context, in *models.CreateInvoiceInput) (*models.Invoice, error) {
	spec := op.Spec{Name: "invoice.create", Allow: secretOnly, Params: in, Check: in.Validate}
	return op.Write(ctx, is.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Invoice, error) {
		reason := models.BillingManual
		inv := &models.Invoice{Status: models.InvoiceDraft, CollectionMethod: models.CollectionMethodOf(*in.CollectionMethod),
			Currency: in.CurrencyOf(), BillingReason: &reason, Metadata: models.MergeMetadata(nil, in.Metadata)}
		if err := setPayer(ctx, w, inv, in.Customer, in.Account); err != nil {
			return nil, err
		}
		var err error
		if inv.TestClockID, err = w.AtPayerClock(ctx, inv.CustomerID, inv.AccountID); err != nil {
			return nil, err
		}
		upd := models.UpdateInvoiceInput{DueDate: in.DueDate, Description: in.Description, Memo: in.Memo, NetTerms: in.NetTerms}
		var f apierr.Fields
		upd.ApplyTo(inv, &f)
		if err := f.Err(); err != nil {
			return nil, err
		}
		now := w.Now()
		inv.ID, inv.Created, inv.Updated = ids.New(now), models.At(now), models.At(now)
		lines := make([]*models.InvoiceLineItem, 0, len(in.LineItems))
		for i, item := range in.LineItems {
			li, err := newLine(ctx, w, inv, item, "line_items."+strconv.Itoa(i)+".product")
			if err != nil {
				return nil, err
			}
			lines = append(lines, li)
			if inv.Total, err = BoundTotal(lines, "line_items."+strconv.Itoa(i)+".quantity"); err != nil {
				return nil, err
			}
		}
		if _, err := w.Tx.Insert(inv).Exec(ctx); err != nil {
			return nil, err
		}
		if len(lines) > 0 {
			if _, err := store.InsertModel(w.Tx, lines).Exec(ctx); err != nil {
				return nil, err
			}
		}
		inv, err = invoiceTable.Find(ctx, w, inv.ID.String())
		if err != nil {
			return nil, err
		}
		return inv, emit(w, EventInvoiceCreated, inv, nil)
	})
}

// setPayer makes the invoice's payer the customer or the account named:
// one of the caller's (another tenant's is unknown), and a customer not
// deleted (spec doc 2 §7.6).
func setPayer(ctx context.Context, w *op.W, inv *models.Invoice, customer, account *string) error {
	if customer != nil {
		id, ok := ids.Parse(*customer)
		c := new(models.Customer)
		if ok {
			if err := w.Tx.Select(c).Column("id", "deleted").Where("cu.id = ?", id).Scan(ctx); err != nil && !store.IsNoRows(err) {
				return err
			}
		}
		if err := RefusePayerCustomer(c); err != nil {
			return err
		}
		inv.CustomerID = &c.ID
		return nil
	}
	id, ok := ids.Parse(*account)
	n := int64(0)
	if ok {
		var err error
		if n, err = w.Tx.Select((*models.Account)(nil)).Where("a.id = ?", id).Count(ctx); err != nil {
			return err
		}
	}
	if n == 0 {
		return UnknownPayerAccount()
	}
	inv.AccountID = &id
	return nil
}

type updateInvoiceParams struct {
	ID    string                     `json:"id"`
	Input *models.UpdateInvoiceInput `json:"input"`
}

// Update changes a draft's terms (collection method, net terms, due date)
// and any invoice's description, memo and metadata; changing the terms of
// an issued invoice is 422 invalid_state. An update that changes nothing
// writes nothing.
func (is *Invoices) Update(ctx context.Context, id string, in *models.UpdateInvoiceInput) (*models.Invoice, error) {
	spec := op.Spec{Name: "invoice.update", Allow: secretOnly, Params: updateInvoiceParams{ID: id, Input: in}, Check: in.Validate}
	return op.Write(ctx, is.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Invoice, error) {
		inv, err := LockInvoice(ctx, w, id)
		if err != nil {
			return nil, err
		}
		if in.DraftOnly() && inv.Status != models.InvoiceDraft {
			return nil, apierr.InvalidState("Only a draft invoice's collection method, net terms and due date can change")
		}
		before, err := events.Render(inv)
		if err != nil {
			return nil, err
		}
		var f apierr.Fields
		in.ApplyTo(inv, &f)
		if err := f.Err(); err != nil {
			return nil, err
		}
		return inv, save(ctx, w, inv, before, EventInvoiceUpdated)
	})
}

// Delete deletes a draft invoice with its lines (API-DECISIONS §4); an
// issued invoice is never deleted (void it): 422 invalid_state.
func (is *Invoices) Delete(ctx context.Context, id string) (*models.Deleted, error) {
	spec := op.Spec{Name: "invoice.delete", Allow: secretOnly, Params: IDParams{ID: id}}
	return op.Write(ctx, is.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Deleted, error) {
		inv, err := LockInvoice(ctx, w, id)
		if err != nil {
			return nil, err
		}
		if inv.Status != models.InvoiceDraft {
			return nil, apierr.InvalidState("Only a draft invoice can be deleted; void an issued one")
		}
		if _, err := w.Tx.Delete(inv).WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		if err := emit(w, EventInvoiceDeleted, inv, nil); err != nil {
			return nil, err
		}
		return &models.Deleted{ID: inv.ID, Object: "invoice", Deleted: true}, nil
	})
}

type IDParams struct {
	ID string `json:"id"`
}

// lockInvoice locks an invoice for a change, takes the write's time from
// its payer's test clock if it has one (clock_time.go), then reads its
// lines in their own statement: a statement that waited for the lock reads the rest of
// the database as it was when it started, so the lines the lock's
// statement aggregated may miss what the previous writer committed.
func LockInvoice(ctx context.Context, w *op.W, id string) (*models.Invoice, error) {
	inv, err := invoiceTable.Lock(ctx, w, id, op.LockUpdate)
	if err != nil {
		return nil, err
	}
	if err := w.AtBoundClock(ctx, inv.TestClockID); err != nil {
		return nil, err
	}
	lines, err := linesOf(ctx, w.Tx, inv.ID)
	if err != nil {
		return nil, err
	}
	inv.LineItems = lines
	return inv, nil
}

// linesOf reads an invoice's lines, oldest first.
func linesOf(ctx context.Context, t *store.Tenant, invoiceID uuid.UUID) ([]*models.InvoiceLineItem, error) {
	lines := []*models.InvoiceLineItem{}
	if err := lineItemTable.Select(t, nil, &lines).Where("li.invoice_id = ?", invoiceID).
		OrderExpr("li.created, li.id").Scan(ctx); err != nil {
		return nil, err
	}
	for _, li := range lines {
		li.Derive()
	}
	return lines, nil
}

// save writes the invoice's changing columns and announces typ with the
// invoice's previous attributes (from before, its rendering before the
// change). Nothing changed: nothing is written or announced.
func save(ctx context.Context, w *op.W, inv *models.Invoice, before []byte, typ events.Type) error {
	previous := inv.Updated
	inv.Updated = models.At(w.Now())
	inv.Derive()
	after, prev, err := events.RenderChange(before, inv)
	if err != nil {
		return err
	}
	if prev == nil {
		inv.Updated = previous
		return nil
	}
	if _, err := w.Tx.Update(inv).Column("status", "number", "collection_method", "total", "net_terms", "due_date",
		"description", "memo", "charge_id", "attempt_count", "last_payment_error_code", "last_payment_error_message",
		"issued_at", "paid_at", "voided_at", "marked_uncollectible_at", "metadata", "updated").WherePK().Exec(ctx); err != nil {
		return err
	}
	w.Emit(typ, inv.ID, after, prev)
	return nil
}

// emit announces typ with the invoice as REST renders it.
func emit(w *op.W, typ events.Type, inv *models.Invoice, prev map[string]any) error {
	inv.Derive()
	raw, err := events.Render(inv)
	if err != nil {
		return err
	}
	w.Emit(typ, inv.ID, raw, prev)
	return nil
}

// today is the date of t in UTC.
func today(t time.Time) models.Date { return models.Date(t.UTC().Format(time.DateOnly)) }
