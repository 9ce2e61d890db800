package invoices

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The invoices the server bills itself (a subscription's period, a usage
// window, an auto-charge) are made in one write: inserted with their
// lines (insertInvoice), then read back, announced and issued at once
// (openInvoice), then collected by their caller.

// insertInvoice inserts a draft invoice and its lines (two statements;
// one without lines). inv.TestClockID is the payer's clock.
func InsertInvoice(ctx context.Context, w *op.W, inv *models.Invoice, items []*models.InvoiceLineItem) error {
	if _, err := w.Tx.Insert(inv).Exec(ctx); err != nil {
		return err
	}
	if len(items) == 0 {
		return nil
	}
	_, err := store.InsertModel(w.Tx, items).Exec(ctx)
	return err
}

// openInvoice reads the inserted invoice back whole, announces
// invoice.created, then issues it: the next number, open, due net_terms
// days after today, announced as invoice.issued.
func OpenInvoice(ctx context.Context, w *op.W, id uuid.UUID) (*models.Invoice, error) {
	inv, err := invoiceTable.Find(ctx, w, id.String())
	if err != nil {
		return nil, err
	}
	if err := emit(w, EventInvoiceCreated, inv, nil); err != nil {
		return nil, err
	}
	before, err := events.Render(inv)
	if err != nil {
		return nil, err
	}
	n, err := nextNumber(ctx, w)
	if err != nil {
		return nil, err
	}
	now := w.Now()
	issued, due := models.At(now), today(now.AddDate(0, 0, inv.NetTerms))
	inv.Status, inv.Number, inv.IssuedAt, inv.DueDate = models.InvoiceOpen, &n, &issued, &due
	return inv, save(ctx, w, inv, before, EventInvoiceIssued)
}
