package models

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type billingAgreementKind struct{}

func (billingAgreementKind) objectName() string { return "transfer_billing_agreement" }

// BillingAgreement binds a fee plan to the merchant's charges or payouts,
// or to one account's (spec doc 2 §2.7). FeePlan is loaded with it.
type BillingAgreement struct {
	bun.BaseModel `bun:"table:transfer_billing_agreements,alias:ba"`
	Tenant

	ID            uuid.UUID                    `bun:"id,pk,type:uuid" json:"id"`
	Object        Object[billingAgreementKind] `bun:"-" json:"object"`
	Status        AgreementStatus              `bun:"status" json:"status"`
	Category      AgreementCategory            `bun:"category" json:"category"`
	EffectiveDate wire.ISOTime                 `bun:"effective_date,type:timestamptz" json:"effective_date"`
	AccountID     *uuid.UUID                   `bun:"account_id,type:uuid" json:"account_id"`
	// FeePlanID is sent as the SDK names it on create (the Ruby SDK reads
	// it back) beside the spec's fee_plan object.
	FeePlanID uuid.UUID        `bun:"fee_plan_id,type:uuid" json:"transfer_fee_plan_id"`
	FeePlan   *TransferFeePlan `bun:"rel:belongs-to,join:merchant_id=merchant_id,join:fee_plan_id=id" json:"fee_plan"`
	Created   wire.Timestamp   `bun:"created,type:timestamptz" json:"created"`
	Updated   wire.Timestamp   `bun:"updated,type:timestamptz" json:"updated"`
}

// CreateAgreementInput is the body of POST /v1/transfer_billing_agreements.
type CreateAgreementInput struct {
	TransferFeePlanID *string            `json:"transfer_fee_plan_id"`
	Category          *AgreementCategory `json:"category"`
	EffectiveDate     *string            `json:"effective_date"`
	AccountID         *string            `json:"account_id"`
	Status            *AgreementStatus   `json:"status"`
}

// UpdateAgreementInput is the body of PATCH: only the status changes.
type UpdateAgreementInput struct {
	Status *AgreementStatus `json:"status"`
}

// Build validates the input (every problem at once) and returns the
// agreement and the ids it names, unresolved. effective_date takes an
// ISO 8601 date ("2025-01-31", midnight UTC) or date-time.
func (in *CreateAgreementInput) Build() (a *BillingAgreement, planID uuid.UUID, accountID *uuid.UUID, err error) {
	var f apierr.Fields
	a = &BillingAgreement{Status: AgreementPending}
	if in.TransferFeePlanID == nil {
		f.Add("transfer_fee_plan_id", "is required")
	} else if id, ok := ids.Parse(*in.TransferFeePlanID); ok {
		planID = id
	} else {
		f.Add("transfer_fee_plan_id", "is not a transfer fee plan of this merchant and mode")
	}
	if in.Category == nil {
		f.Add("category", "is required")
	} else if checkOneOf(&f, "category", in.Category, CategoryCharge, CategoryPayout) {
		a.Category = *in.Category
	}
	if in.EffectiveDate == nil {
		f.Add("effective_date", "is required")
	} else if t, ok := parseISODate(*in.EffectiveDate); ok {
		a.EffectiveDate = wire.ISOTime{Time: t}
	} else {
		f.Add("effective_date", "must be an ISO 8601 date or date-time")
	}
	if in.AccountID != nil {
		if id, ok := ids.Parse(*in.AccountID); ok {
			accountID = &id
		} else {
			f.Add("account_id", "is not an account of this merchant and mode")
		}
	}
	if in.Status != nil && checkOneOf(&f, "status", in.Status, AgreementPending, AgreementActive) {
		a.Status = *in.Status
	}
	return a, planID, accountID, f.Err()
}

// Validate checks an update: a status is required.
func (in *UpdateAgreementInput) Validate() error {
	var f apierr.Fields
	if in.Status == nil {
		f.Add("status", "is required")
	} else {
		checkOneOf(&f, "status", in.Status, AgreementPending, AgreementActive, AgreementInactive)
	}
	return f.Err()
}

func parseISODate(s string) (time.Time, bool) {
	if len(s) > 40 {
		return time.Time{}, false
	}
	for _, layout := range []string{time.DateOnly, time.RFC3339, time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil && t.Year() >= 2000 && t.Year() <= 9999 {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
