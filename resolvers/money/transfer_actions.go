package money

import (
	"context"
	"strconv"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Confirm runs a transfer waiting for confirmation. Any other
// state is 422 invalid_state (confirming a canceled transfer, twice).
func (ts *Transfers) Confirm(ctx context.Context, id string) (*models.Transfer, error) {
	s := ts.svc
	spec := op.Spec{Name: "transfer.confirm", Allow: browserOrSecret, Params: map[string]any{"id": id}, Provider: transferProvider}
	t, err := op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := lockTransferIn(ctx, w, id, "confirmed", models.TransferRequiresConfirmation)
		if err != nil {
			return nil, err
		}
		pm, err := chargeableMethod(ctx, w, *t.SourcePaymentMethodID, t.AccountID)
		if err != nil {
			return nil, err
		}
		t.SourcePaymentMethod = pm
		if err := s.run(ctx, w, t, pm); err != nil {
			return nil, err
		}
		return forCaller(w.P, t), nil
	})
	return replayedForCaller(ctx, t), err
}

// Capture captures an authorized charge, all of it or
// amount_captured_cents of it (from 1 to the amount); the rest is released
// and the fees are priced on what was captured.
func (ts *Transfers) Capture(ctx context.Context, id string, in *models.CaptureTransferInput) (*models.Transfer, error) {
	s := ts.svc
	spec := op.Spec{Name: "transfer.capture", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := transferTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		amount := t.Amount
		if in.AmountCapturedCents != nil {
			amount = *in.AmountCapturedCents
			if amount <= 0 || amount > t.Amount {
				return nil, apierr.FieldError("amount_captured_cents", "must be from 1 to the transfer's amount ("+
					strconv.FormatInt(t.Amount, 10)+")")
			}
		}
		if t.Status != models.TransferRequiresCapture {
			return nil, stateError(t, "captured")
		}
		ch, err := lockCharge(ctx, w, *t.LatestCharge, t.SourcePaymentMethod)
		if err != nil {
			return nil, err
		}
		return t, s.capture(ctx, w, t, ch, true, amount)
	})
}

// cancelable are the states a transfer can be canceled from: before any
// money moved.
var cancelable = []models.TransferStatus{models.TransferRequiresConfirmation, models.TransferRequiresCapture,
	models.TransferRequires3DS, models.TransferRequiresPaymentMethod}

// Cancel cancels a transfer no money has moved for. An
// authorization is released; nothing is journaled, since nothing moved.
func (ts *Transfers) Cancel(ctx context.Context, id string) (*models.Transfer, error) {
	s := ts.svc
	spec := op.Spec{Name: "transfer.cancel", Allow: secretOnly, Params: map[string]any{"id": id}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := lockTransferIn(ctx, w, id, "canceled", cancelable...)
		if err != nil {
			return nil, err
		}
		t.Status = models.TransferCanceled
		return t, s.save(ctx, w, t, EventTransferCanceled)
	})
}

// Update changes description and metadata (a null or empty value
// removes its key), announced as transfer.updated when something changed.
func (ts *Transfers) Update(ctx context.Context, id string, in *models.UpdateTransferInput) (*models.Transfer, error) {
	s := ts.svc
	spec := op.Spec{Name: "transfer.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in},
		Check: func() error {
			if op.SetsMetadata(in.Metadata) {
				return nil
			}
			return in.Validate(nil)
		}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := transferTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		// Against the stored metadata, which an update setting keys may
		// take over the size: the check before the transaction left it here.
		if err := in.Validate(t.Metadata); err != nil {
			return nil, err
		}
		t.Derive()
		before, err := events.Render(t)
		if err != nil {
			return nil, err
		}
		if in.Description != nil {
			t.Description = in.Description
		}
		if in.Metadata != nil {
			t.Metadata = models.MergeMetadata(t.Metadata, in.Metadata)
		}
		prev, err := previousAttributes(before, t)
		if err != nil || prev == nil {
			return t, err
		}
		t.Updated = models.At(w.Now())
		if _, err := w.Tx.Update(t).Column("description", "metadata", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		return t, emit(w, EventTransferUpdated, t, prev)
	})
}

// stateError is the 422 of an action the transfer's status forbids.
func stateError(t *models.Transfer, verb string) error {
	return stateRefusal(transferTable.Resource, string(t.Status), verb)
}
