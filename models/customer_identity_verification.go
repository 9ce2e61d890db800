package models

import (
	"encoding/json"
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
	Tenant

	ID              uuid.UUID                  `bun:"id,pk,type:uuid"`
	Status          CustomerVerificationStatus `bun:"status"`
	VerificationURL string                     `bun:"verification_url"`
	CustomerID      *uuid.UUID                 `bun:"customer_id,type:uuid"`
	// PendingAt, VerifiedAt and FailedAt are when each status was reached
	// (the rendered pending, verified and failed: 0 until then).
	PendingAt  wire.Timestamp `bun:"pending,nullzero"`
	VerifiedAt wire.Timestamp `bun:"verified,nullzero"`
	FailedAt   wire.Timestamp `bun:"failed,nullzero"`
	Created    wire.Timestamp `bun:"created"`
	Updated    wire.Timestamp `bun:"updated"`

	FirstName   *string           `bun:"first_name"`
	LastName    *string           `bun:"last_name"`
	DateOfBirth *string           `bun:"date_of_birth"`
	Email       *string           `bun:"email"`
	PhoneNumber *string           `bun:"phone_number"`
	SSNLastFour *string           `bun:"ssn_last_four"`
	Subject     string            `bun:"subject"`
	Documents   IdentityDocuments `bun:"documents,type:jsonb"`
}

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
const CustomerVerificationType = "identity_document"

// CustomerIdentityVerificationWire is the REST shape (exported so the
// REST contract describes what MarshalJSON writes): the status times are integers, 0 until
// reached (spec doc 1 §2.7), and customer_id names the customer a
// verification was created for (null for one created from fields).
type CustomerIdentityVerificationWire struct {
	ID              uuid.UUID                                `json:"id"`
	Object          Object[customerIdentityVerificationKind] `json:"object"`
	Type            string                                   `json:"type"`
	Status          CustomerVerificationStatus               `json:"status"`
	VerificationURL string                                   `json:"verification_url"`
	CustomerID      *uuid.UUID                               `json:"customer_id"`
	Created         wire.Timestamp                           `json:"created"`
	Updated         wire.Timestamp                           `json:"updated"`
	Pending         UnixOrZero                               `json:"pending"`
	Verified        UnixOrZero                               `json:"verified"`
	Failed          UnixOrZero                               `json:"failed"`
	Livemode        bool                                     `json:"livemode"`
}

// MarshalJSON renders the REST shape (CustomerIdentityVerificationWire).
func (v CustomerIdentityVerification) MarshalJSON() ([]byte, error) {
	return json.Marshal(CustomerIdentityVerificationWire{ID: v.ID, Type: CustomerVerificationType, Status: v.Status, VerificationURL: v.VerificationURL, CustomerID: v.CustomerID,
		Created: v.Created, Updated: v.Updated, Pending: UnixOrZero(v.PendingAt), Verified: UnixOrZero(v.VerifiedAt),
		Failed: UnixOrZero(v.FailedAt), Livemode: v.Livemode})
}

// UnmarshalJSON reads the REST shape back (an idempotent replay).
func (v *CustomerIdentityVerification) UnmarshalJSON(b []byte) error {
	var w CustomerIdentityVerificationWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*v = CustomerIdentityVerification{ID: w.ID, Status: w.Status, VerificationURL: w.VerificationURL, CustomerID: w.CustomerID,
		Created: w.Created, Updated: w.Updated, PendingAt: wire.Timestamp(w.Pending), VerifiedAt: wire.Timestamp(w.Verified),
		FailedAt: wire.Timestamp(w.Failed)}
	v.Livemode = w.Livemode
	return nil
}

// UnixOrZero is a time rendered as Unix seconds, 0 for none.
type UnixOrZero wire.Timestamp

func (t UnixOrZero) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("0"), nil
	}
	return strconv.AppendInt(nil, t.Unix(), 10), nil
}

func (t *UnixOrZero) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return err
	}
	*t = UnixOrZero{}
	if n != 0 {
		*t = UnixOrZero(wire.At(time.Unix(n, 0).UTC()))
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
