package invoices

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// LineItems is the family of an invoice's lines, always read and changed
// through their invoice: List and Get, and Create, Update and Delete
// (line_item_write.go) under the invoice's row lock.
type LineItems struct {
	svc *Service
}

var lineItemTable = &op.Table[models.InvoiceLineItem]{Resource: "invoice_line_item",
	Derive: func(li *models.InvoiceLineItem, _ time.Time) { li.Derive() }}

func newLineItems(s *Service) *LineItems {
	return &LineItems{svc: s}
}

// List returns an invoice's lines, oldest first (404 for an unknown
// invoice): they come with the invoice, in its one statement.
func (ls *LineItems) List(ctx context.Context, invoiceID string) ([]*models.InvoiceLineItem, error) {
	inv, err := invoiceTable.Get(ctx, ls.svc.Kit, invoiceID)
	if err != nil {
		return nil, err
	}
	return inv.LineItems, nil
}

// Get returns one line of an invoice.
func (ls *LineItems) Get(ctx context.Context, invoiceID, id string) (*models.InvoiceLineItem, error) {
	lines, err := ls.List(ctx, invoiceID)
	if err != nil {
		return nil, err
	}
	return findLine(lines, id)
}

// ByIDs reads lines by their own ids, one line or one resource_missing per
// id, through the table the invoice's lines are read from (node(id:)).
func (ls *LineItems) ByIDs(ctx context.Context, idList []string) ([]*models.InvoiceLineItem, []error) {
	return lineItemTable.ByIDs(ctx, ls.svc.Kit, idList)
}

func findLine(lines []*models.InvoiceLineItem, id string) (*models.InvoiceLineItem, error) {
	for _, li := range lines {
		if li.ID.String() == id {
			return li, nil
		}
	}
	return nil, apierr.NotFound("invoice_line_item", id)
}
