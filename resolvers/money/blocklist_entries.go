package money

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// The merchant's block lists (docs/payments.md, "Block lists"): a
// fraudulent refund reports the charge's payment method (its fingerprint,
// so the same card or bank account added again is caught) and the buyer's
// e-mail; a later charge of either, in the same merchant and mode, is
// declined with DeclineBlocked and recorded like any decline.

// DeclineBlocked is the decline code of a blocked payment method or buyer
// (spec doc 2 §2.10).
const DeclineBlocked = "merchant_blacklist"

// Kinds of block list entries.
const (
	blockFingerprint = "payment_method_fingerprint"
	blockEmail       = "email"
)

// blockEntry is one blocked value (table block_list_entries).
type blockEntry struct {
	bun.BaseModel `bun:"table:block_list_entries,alias:bl"`
	wire.Tenant
	Kind     string    `bun:"kind,pk"`
	Value    string    `bun:"value,pk"`
	RefundID uuid.UUID `bun:"refund_id,type:uuid"`
	Created  time.Time `bun:"created"`
}

// reportFraud adds the payment method and the buyer of charge ch to the
// block lists, as refund r reported them (values already listed stay as
// they were).
func reportFraud(ctx context.Context, w *op.W, ch *models.Charge, r *models.Refund) error {
	var entries []*blockEntry
	add := func(kind string, v *string) {
		if v != nil && *v != "" && len(*v) <= 320 {
			entries = append(entries, &blockEntry{Kind: kind, Value: *v, RefundID: r.ID, Created: w.Now()})
		}
	}
	if ch.PaymentMethodDetails != nil {
		add(blockFingerprint, ch.PaymentMethodDetails.Fingerprint)
	}
	email, err := buyerEmail(ctx, w.Tx, ch.AccountID, ch.CustomerID)
	if err != nil {
		return err
	}
	add(blockEmail, email)
	if len(entries) == 0 {
		return nil
	}
	_, err = store.InsertModel(w.Tx, entries).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

// buyerEmail is the lowercase e-mail of the buyer: the account's profile
// e-mail, else the customer's; nil when there is none.
func buyerEmail(ctx context.Context, tn *store.Tenant, accountID, customerID *uuid.UUID) (*string, error) {
	var email *string
	var q *bun.SelectQuery
	switch {
	case accountID != nil:
		q = tn.Select((*models.Account)(nil)).ColumnExpr("a.search_email").Where("a.id = ?", *accountID)
	case customerID != nil:
		q = tn.Select((*models.Customer)(nil)).ColumnExpr("cu.search_email").Where("cu.id = ?", *customerID)
	default:
		return nil, nil
	}
	if err := q.Scan(ctx, &email); err != nil && !store.IsNoRows(err) {
		return nil, err
	}
	return email, nil
}

// Screen is the block list check of every charge path (a transfer's
// confirm and 3-D Secure completion; a charge intent's confirm): it
// answers DeclineBlocked when the payment method's fingerprint, or the
// e-mail of the buyer (accountID's profile, else customerID's, or any of
// extraEmails such as a receipt e-mail), is on the merchant's block lists
// in this mode, and "" otherwise. One statement.
func Screen(ctx context.Context, w *op.W, pm *models.PaymentMethod, accountID, customerID *uuid.UUID, extraEmails ...string) (string, error) {
	sc := w.Tx.Scope()
	emails := make([]string, 0, len(extraEmails))
	for _, e := range extraEmails {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			emails = append(emails, e)
		}
	}
	q := w.Tx.Select((*blockEntry)(nil)).WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		if pm != nil && pm.Fingerprint != nil {
			q = q.WhereOr("bl.kind = ? AND bl.value = ?", blockFingerprint, *pm.Fingerprint)
		}
		if accountID != nil {
			q = q.WhereOr("bl.kind = ? AND bl.value = (SELECT a.search_email FROM accounts AS a "+
				"WHERE a.merchant_id = ? AND a.livemode = ? AND a.id = ?)", blockEmail, sc.MerchantID, sc.Livemode, *accountID)
		}
		if customerID != nil {
			q = q.WhereOr("bl.kind = ? AND bl.value = (SELECT cu.search_email FROM customers AS cu "+
				"WHERE cu.merchant_id = ? AND cu.livemode = ? AND cu.id = ?)", blockEmail, sc.MerchantID, sc.Livemode, *customerID)
		}
		if len(emails) > 0 {
			q = q.WhereOr("bl.kind = ? AND bl.value IN (?)", blockEmail, bun.In(emails))
		}
		return q.WhereOr("false")
	})
	blocked, err := q.Exists(ctx)
	if err != nil || !blocked {
		return "", err
	}
	return DeclineBlocked, nil
}
