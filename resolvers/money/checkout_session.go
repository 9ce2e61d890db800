package money

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CheckoutSecretTTL is how long a chk_sess_ secret works (spec doc 2 §8).
const CheckoutSecretTTL = 30 * time.Minute

// CheckoutSessions is the checkout session family of the area: reads
// from the kit (secret key; a session's secret is never shown again), and
// Create.
type CheckoutSessions struct {
	op.Reader[models.CheckoutSession, op.NoFilter]
}

var checkoutSessionTable = &op.Table[models.CheckoutSession]{Resource: "checkout_session",
	Derive: func(c *models.CheckoutSession, _ time.Time) { c.Derive() }}

func newCheckoutSessions(s *Service) *CheckoutSessions {
	return &CheckoutSessions{Reader: op.Read[models.CheckoutSession, op.NoFilter](s.Kit, checkoutSessionTable)}
}

// Create locks an amount for the browser flow and mints
// its chk_sess_ secret (only its hash is kept). A new session for an
// account ends the previous one's secret at once. A session of an account
// bound to a test clock is created at the clock's time, so its expiry
// (and the secret's) is the clock's frozen_time plus the TTL.
func (cs *CheckoutSessions) Create(ctx context.Context, in *models.CreateCheckoutSessionInput) (*models.CheckoutSession, error) {
	var (
		c       *models.CheckoutSession
		account uuid.UUID
	)
	spec := op.Spec{Name: "checkout_session.create", Allow: secretOnly, Params: in,
		Check: func() (err error) { c, account, err = in.Build(); return err }}
	return op.Write(ctx, cs.Kit, spec, func(ctx context.Context, w *op.W) (*models.CheckoutSession, error) {
		var accounts []models.Account
		if err := w.Tx.Select(&accounts).Column("a.test_clock_id").Where("a.id = ?", account).Scan(ctx); err != nil {
			return nil, err
		}
		if len(accounts) == 0 {
			return nil, apierr.FieldError("account_id", "is not an account of this merchant and mode")
		}
		// A session of an account on a test clock lives on the clock's
		// time: it expires when the clock passes expires_at.
		if err := w.AtBoundClock(ctx, accounts[0].TestClockID); err != nil {
			return nil, err
		}
		now := w.Now()
		c.ID, c.AccountID, c.Created, c.ExpiresAt = ids.New(now), account, models.At(now), models.At(now.Add(CheckoutSecretTTL))
		if _, err := w.Tx.Insert(c).Exec(ctx); err != nil {
			return nil, err
		}
		secret, err := auth.IssueSessionSecret(ctx, w.Tx, auth.CheckoutSession, c.ID, account, now, CheckoutSecretTTL)
		if err != nil {
			return nil, err
		}
		c.ClientSecret = &secret
		c.Derive()
		return c, nil
	})
}

// browserRequest turns a create under a chk_sess_ secret into the
// server-side form: the session's account, its locked amount (an amount
// sent must equal it), currency and authorization mode, and the source
// given as {source: {payment_method_id}}.
func browserRequest(ctx context.Context, w *op.W, in *models.CreateTransferInput) (*models.CreateTransferInput, *uuid.UUID, error) {
	c, err := checkoutSessionTable.Find(ctx, w, w.P.SessionID.String())
	if err != nil {
		return nil, nil, err
	}
	var f apierr.Fields
	if in.Amount != nil && *in.Amount != c.Value {
		f.Add("amount", "must equal the checkout session's amount")
	}
	if in.AccountID != nil && *in.AccountID != c.AccountID.String() {
		f.Add("account_id", "must be the checkout session's account")
	}
	if in.Source == nil || in.Source.PaymentMethodID == nil {
		f.Add("source.payment_method_id", "is required")
	}
	for path, set := range map[string]bool{"destination_payment_method_id": in.DestinationPaymentMethodID != nil,
		"transfer_fee_plan_id": in.TransferFeePlanID != nil, "currency": in.Currency != nil && *in.Currency != c.Currency} {
		if set {
			f.Add(path, "is not accepted under a checkout session")
		}
	}
	if err := f.Err(); err != nil {
		return nil, nil, err
	}
	out := *in
	account, mode := c.AccountID.String(), c.AuthorizationMode
	out.Amount, out.AccountID, out.Currency, out.AuthorizationMode = &c.Value, &account, &c.Currency, &mode
	out.SourcePaymentMethodID = in.Source.PaymentMethodID
	return &out, &c.ID, nil
}
