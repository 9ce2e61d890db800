package invoices

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The state actions of an invoice (API-DECISIONS §4):
//
//	draft ── issue ──► open ── pay ──► paid
//	                   open ── void ──► void
//	                   open ── mark_uncollectible ──► uncollectible ── pay ──► paid
//	                                                  uncollectible ── void ──► void
//
// Every other transition is 422 invalid_state. A draft is deleted, not
// voided.

// transition runs one state action on an invoice under its lock: allowed
// says which states it leaves, apply changes the invoice (and may collect
// it), announcing what happened.
func (is *Invoices) transition(ctx context.Context, name, id string, refused string, allowed []models.InvoiceStatus,
	apply func(ctx context.Context, w *op.W, inv *models.Invoice, before []byte) error) (*models.Invoice, error) {
	spec := op.Spec{Name: name, Allow: secretOnly, Params: IDParams{ID: id}}
	return op.Write(ctx, is.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.Invoice, error) {
		inv, err := LockInvoice(ctx, w, id)
		if err != nil {
			return nil, err
		}
		if !oneOf(inv.Status, allowed) {
			return nil, apierr.InvalidState(refused + " (the invoice is " + string(inv.Status) + ")")
		}
		before, err := events.Render(inv)
		if err != nil {
			return nil, err
		}
		return inv, apply(ctx, w, inv, before)
	})
}

// Issue finalizes a draft: it takes the next number of the merchant's
// gap-free sequence, opens, and is due net_terms days after the day it is
// issued unless it has a due date. An invoice of nothing is paid at once;
// one charged automatically is charged now (a decline leaves it open with
// the decline recorded).
func (is *Invoices) Issue(ctx context.Context, id string) (*models.Invoice, error) {
	return is.transition(ctx, "invoice.issue", id, "Only a draft invoice can be issued", []models.InvoiceStatus{models.InvoiceDraft},
		func(ctx context.Context, w *op.W, inv *models.Invoice, before []byte) error {
			n, err := nextNumber(ctx, w)
			if err != nil {
				return err
			}
			now := models.At(w.Now())
			inv.Status, inv.Number, inv.IssuedAt = models.InvoiceOpen, &n, &now
			if inv.DueDate == nil {
				due := today(w.Now().AddDate(0, 0, inv.NetTerms))
				inv.DueDate = &due
			}
			if err := save(ctx, w, inv, before, EventInvoiceIssued); err != nil {
				return err
			}
			if inv.Total > 0 && inv.CollectionMethod == models.RequestPayment {
				return nil
			}
			return is.collect(ctx, w, inv, nil)
		})
}

// Void cancels an open or uncollectible invoice: nothing more is owed.
func (is *Invoices) Void(ctx context.Context, id string) (*models.Invoice, error) {
	return is.transition(ctx, "invoice.void", id, "Only an open or uncollectible invoice can be voided",
		[]models.InvoiceStatus{models.InvoiceOpen, models.InvoiceUncollectible},
		func(ctx context.Context, w *op.W, inv *models.Invoice, before []byte) error {
			now := models.At(w.Now())
			inv.Status, inv.VoidedAt = models.InvoiceVoid, &now
			return save(ctx, w, inv, before, EventInvoiceVoided)
		})
}

// MarkUncollectible writes an open invoice off (the list's written_off); it
// may still be paid or voided.
func (is *Invoices) MarkUncollectible(ctx context.Context, id string) (*models.Invoice, error) {
	return is.transition(ctx, "invoice.mark_uncollectible", id, "Only an open invoice can be marked uncollectible",
		[]models.InvoiceStatus{models.InvoiceOpen},
		func(ctx context.Context, w *op.W, inv *models.Invoice, before []byte) error {
			now := models.At(w.Now())
			inv.Status, inv.MarkedUncollectibleAt = models.InvoiceUncollectible, &now
			return save(ctx, w, inv, before, EventInvoiceUpdated)
		})
}

func oneOf(s models.InvoiceStatus, list []models.InvoiceStatus) bool {
	for _, v := range list {
		if s == v {
			return true
		}
	}
	return false
}
