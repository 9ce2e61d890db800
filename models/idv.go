package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// IDVInquiry is a document check at the identity provider, started by
// POST /v1/idv/session and pulled by POST /v1/idv/complete (spec doc 1
// §4.4). It is never answered whole: the session and the result are.
type IDVInquiry struct {
	bun.BaseModel `bun:"table:idv_inquiries,alias:inq"`
	Tenant

	ID        uuid.UUID      `bun:"id,pk,type:uuid"`
	AccountID uuid.UUID      `bun:"account_id,type:uuid"`
	Provider  string         `bun:"provider"`
	Status    string         `bun:"status"`
	Subject   string         `bun:"subject"`
	Completed wire.Timestamp `bun:"completed,nullzero"`
	Created   wire.Timestamp `bun:"created"`
	Updated   wire.Timestamp `bun:"updated"`
}

// IDVSession is the answer of POST /v1/idv/session: the inquiry to hand to
// the identity provider's mobile SDK, and, when an open inquiry was reused,
// a session token to resume it with.
type IDVSession struct {
	InquiryID    string  `json:"inquiry_id"`
	SessionToken *string `json:"session_token,omitempty"`
	// Reused reports that the open inquiry was reused (200, not 201).
	Reused bool `json:"-"`
}

// InquiryStatus is a document check's state at the identity provider.
type InquiryStatus string

// InquiryStatuses is the closed set of document check statuses.
var InquiryStatuses = Enum[InquiryStatus](verification.InquiryCreated, verification.InquiryApproved,
	verification.InquiryDeclined, verification.InquiryFailed, verification.InquiryNeedsReview)

// IDVResult is the answer of POST /v1/idv/complete: whether the document
// was verified, the inquiry's status, and the individual's verification
// run outcome (null until a run concluded).
type IDVResult struct {
	Verified    bool                  `json:"verified"`
	Status      InquiryStatus         `json:"status"`
	FailureType *IdentityFailureType  `json:"failure_type"`
	Category    *VerificationCategory `json:"category"`
	Retriable   *bool                 `json:"retriable"`
}

// CompleteIDVInput is the body of POST /v1/idv/complete.
type CompleteIDVInput struct {
	InquiryID *string `json:"inquiry_id"`
}

// Validate checks a complete.
func (in *CompleteIDVInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "inquiry_id", in.InquiryID, 64, true)
	return f.Err()
}
