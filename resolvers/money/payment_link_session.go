package money

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// PaymentLinkSessions is the SDK's payment link session family
// (docs/sandbox.md, "Resources from the SDK"): reads from the kit and
// Create. A session is a page the hosted payment page provider serves, so
// production mode answers 503 provider_not_configured.
type PaymentLinkSessions struct {
	op.Reader[models.PaymentLinkSession, PaymentLinkSessionFilter]
	svc *Service
}

// PaymentLinkSessionFilter narrows a list of payment link sessions to a
// customer's.
type PaymentLinkSessionFilter struct {
	Customer *string `query:"customer_id" filter:"customer_id,id"`
}

var paymentLinkSessionTable = &op.Table[models.PaymentLinkSession]{Resource: "payment_link_session",
	Derive: func(s *models.PaymentLinkSession, _ time.Time) { s.URL = models.PaymentLinkURLBase + s.URLToken }}

func newPaymentLinkSessions(s *Service) *PaymentLinkSessions {
	return &PaymentLinkSessions{Reader: op.Read[models.PaymentLinkSession, PaymentLinkSessionFilter](s.Kit,
		paymentLinkSessionTable), svc: s}
}

// Create opens a payment link session, for the customer named or none; an
// amount without a currency is in US dollars.
func (ps *PaymentLinkSessions) Create(ctx context.Context, in *models.CreatePaymentLinkSessionInput) (*models.PaymentLinkSession, error) {
	spec := op.Spec{Name: "payment_link_session.create", Allow: secretOnly, Params: in,
		Provider: "hosted payment page", Check: in.Validate}
	return op.Write(ctx, ps.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.PaymentLinkSession, error) {
		sess := &models.PaymentLinkSession{Status: models.PaymentLinkSessionOpen, Amount: in.Amount,
			Currency: in.Currency, ClientReferenceID: in.ClientReferenceID, Metadata: models.MergeMetadata(nil, in.Metadata), URLToken: auth.RandomString(32)}
		if in.CustomerID != nil {
			uid, _ := ids.Parse(*in.CustomerID) // checked by the input's Validate
			found, err := w.Tx.Select((*models.Customer)(nil)).Where("cu.id = ?", uid).Exists(ctx)
			if err != nil {
				return nil, err
			}
			if !found {
				e := apierr.NotFound("customer", *in.CustomerID)
				e.Param = "customer_id"
				return nil, e
			}
			sess.CustomerID = &uid
		}
		if sess.Amount != nil && sess.Currency == nil {
			usd := "usd"
			sess.Currency = &usd
		}
		now := w.Now()
		sess.ID, sess.Created, sess.Updated = ids.New(now), models.At(now), models.At(now)
		if _, err := w.Tx.Insert(sess).Exec(ctx); err != nil {
			return nil, err
		}
		sess.URL = models.PaymentLinkURLBase + sess.URLToken
		if err := w.EmitObject(EventPaymentLinkSessionCreated, sess.ID, sess); err != nil {
			return nil, err
		}
		return sess, nil
	})
}
