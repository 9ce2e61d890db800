package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type disputeKind struct{}

func (disputeKind) objectName() string { return "dispute" }

type intentRefKind struct{}

func (intentRefKind) objectName() string { return "charge_intent" }

// DisputeStatus is a dispute's state (internal/domain/dispute's statuses).
type DisputeStatus string

// DisputeStatuses is the closed set of dispute statuses.
var DisputeStatuses = Enum[DisputeStatus](dispute.Received, dispute.WarningNeedsResponse, dispute.WarningUnderReview,
	dispute.WarningClosed, dispute.NeedsResponse, dispute.UnderReview, dispute.Won, dispute.Lost)

// Dispute is the cardholder's bank contesting a charge (spec doc 2 §2.9).
// Its statuses and transitions are internal/domain/dispute's. Beside the
// spec's members it renders what the official SDK reads (amount,
// currency, charge, evidence) and the transfer the charge was made for.
type Dispute struct {
	bun.BaseModel `bun:"table:disputes,alias:dp"`
	Tenant

	ID                      uuid.UUID           `bun:"id,pk,type:uuid" json:"id"`
	Object                  Object[disputeKind] `bun:"-" json:"object"`
	Status                  DisputeStatus       `bun:"status" json:"status"`
	DisplayStatus           string              `bun:"-" json:"display_status"`
	AmountCents             int64               `bun:"amount" json:"amount_cents"`
	AmountCurrency          string              `bun:"currency" json:"amount_currency"`
	Amount                  int64               `bun:"-" json:"amount"`
	Currency                string              `bun:"-" json:"currency"`
	Fee                     int64               `bun:"fee" json:"-"`
	Reason                  DisputeReason       `bun:"embed:reason_" json:"reason"`
	AcquirerReferenceNumber *string             `bun:"acquirer_reference_number" json:"acquirer_reference_number"`
	AuthorizationCode       *string             `bun:"authorization_code" json:"authorization_code"`
	ChargeIntentObject      *DisputeIntentRef   `bun:"-" json:"charge_intent"`
	ChargeID                uuid.UUID           `bun:"charge_id,type:uuid" json:"charge"`
	TransferID              *uuid.UUID          `bun:"transfer_id,type:uuid" json:"transfer"`
	ChargeIntentID          *uuid.UUID          `bun:"charge_intent_id,type:uuid" json:"-"`
	Evidence                DisputeEvidence     `bun:"evidence,type:jsonb" json:"evidence"`
	EvidenceSubmitted       *wire.Timestamp     `bun:"evidence_submitted,type:timestamptz" json:"evidence_submitted"`
	Closed                  *wire.Timestamp     `bun:"closed,type:timestamptz" json:"-"`
	Created                 wire.Timestamp      `bun:"created,type:timestamptz" json:"created"`
	Updated                 wire.Timestamp      `bun:"updated,type:timestamptz" json:"updated"`
	// AccountID and CustomerID are the charge's payer, copied from the
	// charge on insert (by the writer, and by the database for any writer:
	// migration 00024). They page a payer's disputes
	// (Account.disputes, Customer.disputes) and are not on the REST wire.
	AccountID  *uuid.UUID `bun:"account_id,type:uuid" json:"-"`
	CustomerID *uuid.UUID `bun:"customer_id,type:uuid" json:"-"`
}

// DisputeReason is what the issuer reported (spec doc 2 §2.9): its
// members are null until it reports them.
type DisputeReason struct {
	Code        *string          `bun:"code" json:"code"`
	Description *string          `bun:"description" json:"description"`
	Category    *DisputeCategory `bun:"category" json:"category"`
}

// DisputeIntentRef is a dispute's charge_intent for a charge made by a
// charge intent: the intent's id. A transfer's charge has none (null).
type DisputeIntentRef struct {
	ID     uuid.UUID             `json:"id"`
	Object Object[intentRefKind] `json:"object"`
}

// Derive sets the members computed at read time: the display status, the
// SDK's aliases and the charge intent reference.
func (d *Dispute) Derive() {
	d.DisplayStatus = dispute.DisplayStatus(string(d.Status))
	d.Amount, d.Currency = d.AmountCents, d.AmountCurrency
	d.ChargeIntentObject = nil
	if d.ChargeIntentID != nil {
		d.ChargeIntentObject = &DisputeIntentRef{ID: *d.ChargeIntentID}
	}
}

// DisputeEvidence is what the merchant submits to contest a dispute
// (API-DECISIONS §4). Every member is free text, bounded
// (maxEvidenceText, or maxEvidenceShort for the one-line members).
type DisputeEvidence struct {
	AccessActivityLog            *string `json:"access_activity_log"`
	BillingAddress               *string `json:"billing_address"`
	CancellationPolicy           *string `json:"cancellation_policy"`
	CancellationPolicyDisclosure *string `json:"cancellation_policy_disclosure"`
	CancellationRebuttal         *string `json:"cancellation_rebuttal"`
	CustomerEmailAddress         *string `json:"customer_email_address"`
	CustomerName                 *string `json:"customer_name"`
	CustomerPurchaseIP           *string `json:"customer_purchase_ip"`
	DuplicateChargeExplanation   *string `json:"duplicate_charge_explanation"`
	DuplicateChargeID            *string `json:"duplicate_charge_id"`
	ProductDescription           *string `json:"product_description"`
	RefundPolicyDisclosure       *string `json:"refund_policy_disclosure"`
	ShippingTrackingNumber       *string `json:"shipping_tracking_number"`
	UncategorizedText            *string `json:"uncategorized_text"`
	// Documents are added one at a time through
	// POST /v1/disputes/{id}/documents, never by PATCH, oldest first.
	Documents []DisputeDocument `json:"documents,omitempty"`
}

// Bounds of evidence members, in characters.
const (
	maxEvidenceText  = 20_000
	maxEvidenceShort = 500
)

// members lists the evidence's members with their wire names and bounds.
func (e *DisputeEvidence) members() []evidenceMember {
	return []evidenceMember{
		{"access_activity_log", &e.AccessActivityLog, maxEvidenceText},
		{"billing_address", &e.BillingAddress, maxEvidenceShort},
		{"cancellation_policy", &e.CancellationPolicy, maxEvidenceText},
		{"cancellation_policy_disclosure", &e.CancellationPolicyDisclosure, maxEvidenceText},
		{"cancellation_rebuttal", &e.CancellationRebuttal, maxEvidenceText},
		{"customer_email_address", &e.CustomerEmailAddress, maxEvidenceShort},
		{"customer_name", &e.CustomerName, maxEvidenceShort},
		{"customer_purchase_ip", &e.CustomerPurchaseIP, maxEvidenceShort},
		{"duplicate_charge_explanation", &e.DuplicateChargeExplanation, maxEvidenceText},
		{"duplicate_charge_id", &e.DuplicateChargeID, maxEvidenceShort},
		{"product_description", &e.ProductDescription, maxEvidenceText},
		{"refund_policy_disclosure", &e.RefundPolicyDisclosure, maxEvidenceText},
		{"shipping_tracking_number", &e.ShippingTrackingNumber, maxEvidenceShort},
		{"uncategorized_text", &e.UncategorizedText, maxEvidenceText},
	}
}

type evidenceMember struct {
	name string
	v    **string
	max  int
}

// Merge applies in onto e: a member sent replaces the stored one, an empty
// string removes it, a member not sent stays.
func (e *DisputeEvidence) Merge(in *DisputeEvidence) {
	if in == nil {
		return
	}
	mine, theirs := e.members(), in.members()
	for i, m := range theirs {
		switch v := *m.v; {
		case v == nil:
		case *v == "":
			*mine[i].v = nil
		default:
			s := *v
			*mine[i].v = &s
		}
	}
}

// UpdateDisputeInput is the body of PATCH /v1/disputes/{id}
// (API-DECISIONS §4). Submit defaults to true: spec doc 2 §4.10 says that
// updating any evidence submits the evidence for review; submit: false
// saves it without submitting.
type UpdateDisputeInput struct {
	Evidence *DisputeEvidence `json:"evidence"`
	Submit   *bool            `json:"submit"`
}

// Validate checks the evidence's members, every problem at once.
func (in *UpdateDisputeInput) Validate() error {
	var f apierr.Fields
	if in.Evidence != nil {
		for _, m := range in.Evidence.members() {
			checkText(&f, "evidence."+m.name, *m.v, m.max, false)
		}
		if in.Evidence.Documents != nil {
			f.Add("evidence.documents", "is not updatable: add a document with POST /v1/disputes/{id}/documents")
		}
	}
	return f.Err()
}

// Submits says whether the update submits the evidence for review.
func (in *UpdateDisputeInput) Submits() bool { return in.Submit == nil || *in.Submit }

// OpenDisputeInput is the body of the sandbox's
// POST /v1/test_helpers/charges/{id}/dispute: the issuer's reason code
// (internal/domain/dispute lists them; fraudulent by default).
type OpenDisputeInput struct {
	Reason *string `json:"reason"`
}

// Validate checks the reason code.
func (in *OpenDisputeInput) Validate() error {
	var f apierr.Fields
	if in.Reason != nil && !dispute.KnownReason(*in.Reason) {
		f.Add("reason", "must be one of: "+dispute.ReasonList())
	}
	return f.Err()
}
