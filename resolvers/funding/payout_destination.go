package funding

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// destination is where a payout goes: the payment method, the account it
// belongs to and the billable event that prices the flow.
type destination struct {
	method  *models.PaymentMethod
	account uuid.UUID
	event   string
}

// CodeCapabilityNotActive is the 422 of a payout to an account that may
// not receive it (the same code transfer payouts answer).
const CodeCapabilityNotActive = "capability_not_active"

// payoutDestination checks the payout rules of the destination (spec doc
// 2 §4.7), one statement for the method (locked FOR SHARE) and one for the
// capabilities:
// the method is the caller's (another merchant's or mode's is a
// validation error on payment_method, as transfers answer, telling
// nothing of whether it exists), attached to an account, and active;
// speed is required for a bank account and refused for a card; the
// account's receive capability is active (card_receive, or
// bank_account_receive) and its KYC approved (its kyc capability active).
func payoutDestination(ctx context.Context, t *store.Tenant, req *models.PayoutRequest) (*destination, error) {
	pm := new(models.PaymentMethod)
	// FOR SHARE: the method cannot be detached or blocked while the payout
	// to it commits, and payouts to one method do not wait on each other.
	if err := t.Select(pm).Where("pm.id = ?", req.PaymentMethodID).For("SHARE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.FieldError("payment_method", "is not a payment method of this merchant and mode")
		}
		return nil, err
	}
	var f apierr.Fields
	switch {
	case pm.AccountID == nil:
		f.Add("payment_method", "must belong to an account: payouts go to an account's own card or bank account")
	case pm.Status != models.PaymentMethodActive:
		f.Add("payment_method", "is "+string(pm.Status)+" and cannot receive a payout")
	}
	d := &destination{method: pm, event: models.BillablePayoutPushToCard}
	needed := capability.CardReceive
	if pm.Type == models.PaymentMethodACH {
		d.event, needed = models.BillablePayoutACH, capability.BankAccountReceive
		if req.Speed == nil {
			f.Add("speed", "is required for a bank account (ACH) payout: asap, same_day or standard")
		}
	} else if req.Speed != nil {
		f.Add("speed", "is not accepted for a card (push-to-card) payout")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	d.account = *pm.AccountID
	var active []string
	if err := t.Select((*models.Capability)(nil)).Column("c.name").Where("c.account_id = ?", d.account).
		Where("c.status = ?", capability.StatusActive).Where("c.name IN (?)", bun.In([]capability.Name{needed, capability.KYC})).
		Scan(ctx, &active); err != nil {
		return nil, err
	}
	for _, name := range []capability.Name{needed, capability.KYC} {
		if !contains(active, string(name)) {
			return nil, notActive(name)
		}
	}
	return d, nil
}

func notActive(name capability.Name) error {
	msg := "The account's " + string(name) + " capability must be active to receive a payout"
	if name == capability.KYC {
		msg = "The account's KYC must be approved (its kyc capability active) to receive a payout"
	}
	return apierr.Rule(CodeCapabilityNotActive, msg, "payment_method", map[string]any{"capability": string(name)})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
