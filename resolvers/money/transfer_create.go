package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Create creates a transfer and, with confirm, runs it (API-
// DECISIONS §4). A source payment method makes it a charge of that card
// or bank account; the charge is priced by the applicable billing
// agreement or the explicit plan; promotion codes are redeemed in the same
// transaction (catalog.Discounts.Redeem), and the amount charged is the
// amount less their discounts. Everything — the transfer, the discounts,
// the code counts, the ledger journal, the events and the idempotency
// record — commits together, so a retry replays and never charges twice.
func (ts *Transfers) Create(ctx context.Context, in *models.CreateTransferInput) (*models.Transfer, error) {
	s := ts.svc
	var req *models.TransferRequest
	spec := op.Spec{Name: "transfer.create", Allow: browserOrSecret, Params: in, Provider: transferProvider,
		Check: func() (err error) {
			// The browser flow's input is completed from its session's
			// row (browserRequest), so the write checks it.
			if p := auth.FromContext(ctx); p != nil && p.Kind == auth.CheckoutSession {
				return nil
			}
			req, err = in.Validate()
			return err
		}}
	t, err := op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := s.createTransfer(ctx, w, in, req)
		return forCaller(w.P, t), err
	})
	return replayedForCaller(ctx, t), err
}

// createTransfer is Transfers.Create's write; req is the checked input,
// nil for the browser flow (checked here, once its session completed it).
func (s *Service) createTransfer(ctx context.Context, w *op.W, in *models.CreateTransferInput, req *models.TransferRequest) (*models.Transfer, error) {
	var session *uuid.UUID
	if w.P.Kind == auth.CheckoutSession {
		var err error
		if in, session, err = browserRequest(ctx, w, in); err != nil {
			return nil, err
		}
		if req, err = in.Validate(); err != nil {
			return nil, err
		}
	}
	if err := s.checkAccounts(ctx, w, req); err != nil {
		return nil, err
	}
	if req.SourcePaymentMethodID == nil && session == nil {
		return s.payout(ctx, w, in, req)
	}
	pm, err := chargeableMethod(ctx, w, *req.SourcePaymentMethodID, req.AccountID)
	if err != nil {
		return nil, err
	}
	event := billableEventOf(pm)
	price, err := resolvePricing(ctx, w.Tx, w.Now(), models.CategoryCharge, event, &req.AccountID, req.FeePlanID, "transfer_fee_plan_id")
	if err != nil {
		return nil, err
	}
	now := w.Now()
	t := &models.Transfer{ID: ids.New(now), Status: models.TransferRequiresConfirmation,
		Amount: req.Amount, AmountBeforeDiscounts: req.Amount, Currency: req.Currency,
		Description: in.Description, FeeSource: price.feeSource(), FeeApplicationMode: price.plan.FeeApplicationMode,
		TransferFeePlanID: price.plan.ID, AuthorizationMode: req.AuthorizationMode,
		AccountID: req.AccountID, SellerID: req.SellerID, SourcePaymentMethodID: &pm.ID, SourcePaymentMethod: pm,
		BillableEventType: event, Reference: in.Reference, SonarSessionID: in.SonarSessionID,
		Metadata: models.MergeMetadata(nil, in.Metadata), CheckoutSessionID: session, Created: models.At(now), Updated: models.At(now)}
	if price.agreement != nil {
		t.BillingAgreementID = &price.agreement.ID
	}
	if len(req.PromotionCodes) > 0 {
		discounts, err := s.Catalog.Discounts.Redeem(ctx, w, catalog.Redemption{Codes: req.PromotionCodes,
			AmountCents: req.Amount, Currency: req.Currency, AccountID: &req.AccountID,
			DiscountableType: "Transfer", DiscountableID: &t.ID})
		if err != nil {
			return nil, err
		}
		for _, d := range discounts {
			t.Amount -= d.DiscountAmountCents
		}
		if t.Amount <= 0 {
			return nil, apierr.Rule("amount_too_small",
				"The promotion codes leave nothing to charge; a transfer's amount must be greater than 0", "promotion_codes", nil)
		}
	}
	if err := setQuote(t, price, t.Amount); err != nil {
		return nil, err
	}
	if _, err := w.Tx.Insert(t).Exec(ctx); err != nil {
		return nil, err
	}
	if err := emit(w, EventTransferCreated, t, nil); err != nil {
		return nil, err
	}
	if !req.Confirm {
		return t, nil
	}
	return t, s.run(ctx, w, t, pm)
}

// checkAccounts resolves the buyer account and the seller (attribution
// only): both must be the caller's, else a field error.
func (s *Service) checkAccounts(ctx context.Context, w *op.W, req *models.TransferRequest) error {
	var f apierr.Fields
	check := func(path string, id uuid.UUID) error {
		n, err := w.Tx.Select((*models.Account)(nil)).Where("a.id = ?", id).Count(ctx)
		if err == nil && n == 0 {
			f.Add(path, "is not an account of this merchant and mode")
		}
		return err
	}
	if err := check("account_id", req.AccountID); err != nil {
		return err
	}
	if req.SellerID != nil {
		if err := check("seller_id", *req.SellerID); err != nil {
			return err
		}
	}
	return f.Err()
}

// setQuote prices amount with price and writes the fee members.
func setQuote(t *models.Transfer, price *pricing, amount int64) error {
	q, err := price.quote(amount, t.Currency)
	if err != nil {
		return err
	}
	t.PlatformFee, t.FrameFee, t.TotalFees = q.PlatformFee, q.FrameFee, q.TotalFees
	t.GrossAmount, t.NetAmount = q.GrossAmount, q.NetAmount
	return nil
}
