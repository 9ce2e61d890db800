package models

import (
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type customerIdentityVerificationKind struct{}

func (customerIdentityVerificationKind) objectName() string { return "customer_identity_verification" }

// CustomerIdentityVerification is the legacy, payer-side identity check
// (spec doc 1 §2.7, §4.10): a verification of a customer, or of a person
// described by the fields given at creation, against ID documents and a
// selfie judged by the identity provider.
//
// What is kept: the identity claimed (names, date of birth, e-mail, phone,
// and of an SSN only its last four digits), never rendered; the phone the
// sandbox provider judges (Subject); and of each uploaded document a
// receipt (Documents: its type, size and SHA-256 digest), never the file,
// which goes to the identity provider.
type CustomerIdentityVerification struct {
	bun.BaseModel `bun:"table:customer_identity_verifications,alias:civ"`

	ID              uuid.UUID                                `bun:"id,pk,type:uuid" json:"id"`
	Object          Object[customerIdentityVerificationKind] `bun:"-" json:"object"`
	Type            CustomerVerificationType                 `bun:"-" json:"type"`
	Status          CustomerVerificationStatus               `bun:"status" json:"status"`
	VerificationURL string                                   `bun:"verification_url" json:"verification_url"`
	// CustomerID names the customer a verification was created for (null
	// for one created from fields).
	CustomerID *uuid.UUID     `bun:"customer_id,type:uuid" json:"customer_id"`
	Created    wire.Timestamp `bun:"created" json:"created"`
	Updated    wire.Timestamp `bun:"updated" json:"updated"`
	// Pending, Verified and Failed are when each status was reached, in
	// Unix seconds: 0 until then (spec doc 1 §2.7; GraphQL's null, the
	// methods PendingAt, VerifiedAt and FailedAt).
	Pending  UnixOrZero `bun:"pending,nullzero" json:"pending"`
	Verified UnixOrZero `bun:"verified,nullzero" json:"verified"`
	Failed   UnixOrZero `bun:"failed,nullzero" json:"failed"`
	// Tenant comes last: livemode is the last member of the rendering.
	Tenant

	FirstName   *string           `bun:"first_name" json:"-"`
	LastName    *string           `bun:"last_name" json:"-"`
	DateOfBirth *string           `bun:"date_of_birth" json:"-"`
	Email       *string           `bun:"email" json:"-"`
	PhoneNumber *string           `bun:"phone_number" json:"-"`
	SSNLastFour *string           `bun:"ssn_last_four" json:"-"`
	Subject     string            `bun:"subject" json:"-"`
	Documents   IdentityDocuments `bun:"documents,type:jsonb" json:"-"`
}

// PendingAt is when the verification turned pending (zero until then).
func (v *CustomerIdentityVerification) PendingAt() wire.Timestamp { return v.Pending.Timestamp }

// VerifiedAt is when the verification was verified (zero until then).
func (v *CustomerIdentityVerification) VerifiedAt() wire.Timestamp { return v.Verified.Timestamp }

// FailedAt is when the verification failed (zero until then).
func (v *CustomerIdentityVerification) FailedAt() wire.Timestamp { return v.Failed.Timestamp }

// IdentityDocuments are the receipts of the documents on file, by slot
// (verification.DocumentSlots).
type IdentityDocuments map[string]*DocumentReceipt

// DocumentReceipt is what is kept of an uploaded document.
type DocumentReceipt struct {
	ContentType string         `json:"content_type"`
	Size        int64          `json:"size"`
	SHA256      string         `json:"sha256"`
	Received    wire.Timestamp `json:"received"`
	// FileID is the provider's reference to a document named by one
	// instead of sent (content type, size and digest are then empty).
	FileID string `json:"file_id,omitempty"`
	// Metadata is what the reference was sent with.
	Metadata Metadata `json:"metadata,omitempty"`
}

// CustomerVerificationType is every verification's type: this server
// checks identity documents and a selfie, the one kind of check the real
// service's clients name ("identity_document"; the Ruby SDK reads it).
type CustomerVerificationType struct{}

// MarshalJSON writes "identity_document".
func (CustomerVerificationType) MarshalJSON() ([]byte, error) {
	return []byte(`"identity_document"`), nil
}

// UnmarshalJSON accepts anything: the value is implied.
func (*CustomerVerificationType) UnmarshalJSON([]byte) error { return nil }

// UnixOrZero is a time rendered as Unix seconds, 0 for none; stored as a
// nullable timestamp, as wire.Timestamp is.
type UnixOrZero struct{ wire.Timestamp }

// MarshalJSON writes the Unix seconds, or 0.
func (t UnixOrZero) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("0"), nil
	}
	return strconv.AppendInt(nil, t.Unix(), 10), nil
}

// UnmarshalJSON reads Unix seconds, 0 for none.
func (t *UnixOrZero) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return err
	}
	*t = UnixOrZero{}
	if n != 0 {
		t.Timestamp = wire.At(time.Unix(n, 0).UTC())
	}
	return nil
}

// MissingDocuments lists the slots still without a document, in order.
func (v *CustomerIdentityVerification) MissingDocuments(slots []string) []string {
	var out []string
	for _, s := range slots {
		if v.Documents[s] == nil {
			out = append(out, s)
		}
	}
	return out
}
