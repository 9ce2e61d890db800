package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
	"github.com/frame-oss/payments-server/resolvers/payments"
)

// Create creates a charge intent (deprecated, wire-compatible;
// docs/payments.md "Charge intents") and, with confirm, charges it. The
// payer is the customer or the account given, or a customer made from
// customer_data; a card given inline (payment_method_data) is created
// through the payments area's one validation path. Promotion codes are
// redeemed in the same transaction (catalog.Discounts.Redeem) and the amount
// charged is the amount less their discounts. Everything — the intent, its
// customer and card, the discounts, the charge, the journal, the events,
// its client secret's hash and the idempotency record — commits together,
// so a retry replays and never charges twice.
//
// The client secret is stored only as a hash, never in clear — not in the
// idempotency record either: the result recorded for a retry carries no
// secret, and a replayed create answers the same intent with a newly
// issued secret (earlier ones keep working).
func (cis *ChargeIntents) Create(ctx context.Context, in *models.CreateChargeIntentInput) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.create", Allow: secretOnly, Params: in}
	var secret string
	ci, err := s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		now := w.Now()
		var f apierr.Fields
		req := in.Check(&f)
		if in.CustomerData != nil {
			if in.CustomerData.Name == nil {
				f.Add("customer_data.name", "is required")
			}
			in.CustomerData.CustomerInput().Check(f.Under("customer_data"), now)
		}
		var card *payments.Draft
		if in.PaymentMethodData != nil && !f.Has("payment_method_data.type") {
			card = s.Payments.PaymentMethods.Draft(f.Under("payment_method_data"), in.PaymentMethodData.PaymentMethodInput(),
				w.Tx.Scope().Livemode, now)
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		if w.Tx.Scope().Livemode {
			return nil, errNoProvider
		}
		ci := &models.ChargeIntent{ID: ids.New(now), Status: models.ChargeIntentRequiresPaymentMethod,
			Amount: req.Amount, AmountBeforeDiscounts: req.Amount, Currency: req.Currency,
			AuthorizationMode: req.AuthorizationMode, Description: in.Description, ReferenceID: in.ReferenceID,
			ReceiptEmail: in.ReceiptEmail, SonarSessionID: in.SonarSessionID, RequestedFeePlanID: req.FeePlanID,
			Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Updated: models.At(now)}
		ci.SetScope(w.Tx.Scope())
		if in.Shipping != nil {
			ci.Shipping = models.AddressFrom(in.Shipping, nil, models.AddressShipping, ids.New(now), ci.Livemode)
		}
		if req.FeePlanID != nil {
			if _, err := feePlanTable.Find(ctx, w, req.FeePlanID.String()); err != nil {
				return nil, apierr.FieldError("transfer_fee_plan_id", "is not a transfer fee plan of this merchant and mode")
			}
		}
		if err := setPayer(ctx, w.Tx, ci, req.CustomerID, req.AccountID); err != nil {
			return nil, err
		}
		if in.CustomerData != nil {
			c, err := s.Catalog.Customers.Insert(ctx, w, in.CustomerData.CustomerInput())
			if err != nil {
				return nil, err
			}
			ci.CustomerID, ci.Customer = &c.ID, c
		}
		pm, err := s.createdIntentMethod(ctx, w, ci, req, card)
		if err != nil {
			return nil, err
		}
		if pm != nil {
			ci.Status, ci.PaymentMethodID, ci.PaymentMethod = models.ChargeIntentRequiresConfirmation, &pm.ID, pm
		}
		if err := s.redeemForIntent(ctx, w, ci, req.PromotionCodes); err != nil {
			return nil, err
		}
		if _, err := w.Tx.Insert(ci).Exec(ctx); err != nil {
			return nil, err
		}
		if secret, err = auth.IssueObjectSecret(ctx, w.Tx, auth.ChargeIntentSecret, auth.ChargeIntentSecretPrefix, ci.ID,
			derefID(ci.AccountID), now, ChargeIntentSecretTTL, s.deriveIntentSecret); err != nil {
			return nil, err
		}
		if err := s.emitIntent(ctx, w, EventChargeIntentCreated, ci, nil); err != nil {
			return nil, err
		}
		if req.Confirm {
			return ci, s.chargeIntent(ctx, w, ci, pm)
		}
		return ci, nil
	})
	if err != nil {
		return nil, err
	}
	if secret == "" { // a replay: the secret issued then was not kept in clear
		if secret, err = s.reissueSecret(ctx, ci); err != nil {
			return nil, err
		}
	}
	ci.ClientSecret = &secret
	return ci, nil
}

// reissueSecret issues another client secret for intent ci, in a
// transaction of its own.
func (s *Service) reissueSecret(ctx context.Context, ci *models.ChargeIntent) (string, error) {
	p := auth.FromContext(ctx)
	var secret string
	err := s.DB.Tx(ctx, p.Scope, func(ctx context.Context, tx *store.Tenant) error {
		var err error
		secret, err = auth.IssueObjectSecret(ctx, tx, auth.ChargeIntentSecret, auth.ChargeIntentSecretPrefix, ci.ID,
			derefID(ci.AccountID), s.Clock.Now(), ChargeIntentSecretTTL, s.deriveIntentSecret)
		return err
	})
	return secret, err
}

// createdIntentMethod is the payment method a new intent charges: the card
// given inline, stored (attached to the payer when attach is true), or the
// payment method named, checked against the payer.
func (s *Service) createdIntentMethod(ctx context.Context, w *op.W, ci *models.ChargeIntent, req *models.ChargeIntentRequest,
	card *payments.Draft) (*models.PaymentMethod, error) {
	switch {
	case card != nil:
		var to payments.Owner
		if req.Attach {
			ci.Customer = nil // read again with its new card when rendered
			if ci.CustomerID != nil {
				id := ci.CustomerID.String()
				to.Customer = &id
			} else if ci.AccountID != nil {
				id := ci.AccountID.String()
				to.Account = &id
			}
		}
		return s.Payments.PaymentMethods.Store(ctx, w, card, to)
	case req.PaymentMethodID != nil:
		return intentMethod(ctx, w, ci, *req.PaymentMethodID, "payment_method")
	}
	return nil, nil
}

// redeemForIntent applies the promotion codes to the intent's amount
// (discountable_type ChargeIntent): a code that does not apply refuses the
// whole create, and a discount leaving nothing to charge is 422
// amount_too_small.
func (s *Service) redeemForIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, codes []string) error {
	if len(codes) == 0 {
		return nil
	}
	discounts, err := s.Catalog.Discounts.Redeem(ctx, w, catalog.Redemption{Codes: codes, AmountCents: ci.Amount,
		Currency: ledgerCurrency(ci), CustomerID: ci.CustomerID, AccountID: ci.AccountID,
		DiscountableType: "ChargeIntent", DiscountableID: &ci.ID})
	if err != nil {
		return err
	}
	for _, d := range discounts {
		ci.Amount -= d.DiscountAmountCents
	}
	if ci.Amount <= 0 {
		return apierr.Rule("amount_too_small",
			"The promotion codes leave nothing to charge; a charge intent's amount must be greater than 0", "promotion_codes", nil)
	}
	return nil
}
