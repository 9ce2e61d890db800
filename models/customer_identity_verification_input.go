package models

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// CreateCustomerIdentityVerificationInput is the body of POST
// /v1/customer_identity_verifications (spec doc 1 §4.10): every member is
// optional; customer_id excludes the profile fields.
type CreateCustomerIdentityVerificationInput struct {
	CustomerID  *string `json:"customer_id"`
	FirstName   *string `json:"first_name"`
	LastName    *string `json:"last_name"`
	DateOfBirth *string `json:"date_of_birth"`
	Email       *string `json:"email"`
	PhoneNumber *string `json:"phone_number"`
	SSN         *string `json:"ssn"`
}

// profileFields names the profile members given.
func (in *CreateCustomerIdentityVerificationInput) profileFields() []string {
	var out []string
	for _, m := range []struct {
		name string
		v    *string
	}{{"first_name", in.FirstName}, {"last_name", in.LastName}, {"date_of_birth", in.DateOfBirth},
		{"email", in.Email}, {"phone_number", in.PhoneNumber}, {"ssn", in.SSN}} {
		if m.v != nil {
			out = append(out, m.name)
		}
	}
	return out
}

// Validate checks the request, reporting every problem at once: the
// formats of spec doc 1 §4.10 (a date of birth YYYY-MM-DD, a valid e-mail,
// a phone number of 10 or 11 digits once its other characters are
// stripped, an SSN XXX-XX-XXXX or digits alone) and customer_id given
// alone.
func (in *CreateCustomerIdentityVerificationInput) Validate(now time.Time) error {
	var f apierr.Fields
	if in.CustomerID != nil {
		if checkText(&f, "customer_id", in.CustomerID, 64, true) {
			if given := in.profileFields(); len(given) > 0 {
				f.Add("customer_id", "cannot be given with profile fields ("+strings.Join(given, ", ")+
					"): the customer's own details are verified")
			}
		}
	}
	checkText(&f, "first_name", in.FirstName, 100, in.FirstName != nil)
	checkText(&f, "last_name", in.LastName, 100, in.LastName != nil)
	checkDate(&f, "date_of_birth", in.DateOfBirth, now)
	checkEmail(&f, "email", in.Email)
	if in.PhoneNumber != nil && checkText(&f, "phone_number", in.PhoneNumber, 32, true) {
		if _, ok := CustomerIdentityPhone(*in.PhoneNumber); !ok {
			f.Add("phone_number", "must have 10 or 11 digits")
		}
	}
	checkPattern(&f, "ssn", in.SSN, reCustomerSSN, "must be XXX-XX-XXXX or 10 digits")
	return f.Err()
}

// CustomerIdentityPhone is a phone number as customer identity
// verifications take it (spec doc 1 §8: 10 or 11 digits, every other
// character stripped), in E.164: ten digits are a US number, eleven carry
// their calling code.
func CustomerIdentityPhone(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	switch d := b.String(); len(d) {
	case 10:
		return "+1" + d, true
	case 11:
		return "+" + d, true
	}
	return "", false
}

// Upload limits of POST /v1/customer_identity_verifications/{id}/
// upload_documents: what one request may carry.
const (
	// MaxDocumentBytes bounds one document.
	MaxDocumentBytes = 10 << 20
	// MaxDocumentsPerUpload bounds the documents of one request: the ID's
	// two sides and a selfie.
	MaxDocumentsPerUpload = 3
	// MaxUploadBytes bounds a whole request body: the documents and the
	// multipart framing around them.
	MaxUploadBytes = MaxDocumentsPerUpload*MaxDocumentBytes + 1<<20
)

// IdentityDocument is one uploaded document as the transport read it:
// never the bytes, only what they showed (the content type their first
// bytes show, their size, their SHA-256 digest) and what the client
// declared (the field naming the document, a content type).
type IdentityDocument struct {
	Field        string
	DeclaredType string
	SniffedType  string
	Size         int64
	SHA256       []byte
	// TooLarge: the document went past MaxDocumentBytes and was not read
	// further (Size and SHA256 cover what was read).
	TooLarge bool
	// Unreadable: the transport could not decode it (GraphQL's base64).
	Unreadable bool
	// Reference: the document was named by a reference to a file the
	// provider holds, not sent (customer_identity_document_refs.go).
	Reference *DocumentReference
}

// ReadDocument reads one document from r as it arrives, without keeping
// it: at most MaxDocumentBytes+1 bytes go through a SHA-256 digest, and its
// first bytes are kept to tell its type. An error is r's own (the
// connection failed, or the request went past its size limit).
func ReadDocument(field, declaredType string, r io.Reader) (*IdentityDocument, error) {
	d := &IdentityDocument{Field: field, DeclaredType: declaredType}
	h := sha256.New()
	var head headBuffer
	n, err := io.Copy(io.MultiWriter(h, &head), io.LimitReader(r, MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	d.Size, d.SHA256, d.SniffedType = n, h.Sum(nil), verification.SniffDocument(head.b)
	d.TooLarge = n > MaxDocumentBytes
	return d, nil
}

// headBuffer keeps the first bytes written to it.
type headBuffer struct{ b []byte }

func (w *headBuffer) Write(p []byte) (int, error) {
	if room := 16 - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// UploadIdentityDocumentsInput is an upload's documents, in the order sent.
type UploadIdentityDocumentsInput struct {
	Documents []*IdentityDocument
	// TooMany: the request carried more than MaxDocumentsPerUpload
	// documents; the ones past the limit were not read.
	TooMany bool
}

// Validate checks every document at once: each must name a slot
// (id_front, id_back, selfie; once per request), be a non-empty JPEG or
// PNG image (or a PDF for the ID's sides) of at most MaxDocumentBytes, and
// be what its declared content type says.
func (in *UploadIdentityDocumentsInput) Validate() error {
	var f apierr.Fields
	if len(in.Documents) == 0 {
		f.Add("documents", "at least one document is required: id_front, id_back or selfie")
	}
	if in.TooMany {
		f.Addf("documents", "at most %d documents can be sent in one request", MaxDocumentsPerUpload)
	}
	seen := map[string]bool{}
	for i, d := range in.Documents {
		if d.Reference != nil {
			d.checkReference(&f, i, seen)
			continue
		}
		slot, ok := verification.DocumentSlot(d.Field)
		if !ok {
			f.Add("documents", excerpt(d.Field)+" is not a document this endpoint takes: id_front, id_back or selfie")
			continue
		}
		if seen[slot] {
			f.Add(d.Field, "names a document already sent in this request")
			continue
		}
		seen[slot] = true
		declared := normalType(d.DeclaredType)
		switch {
		case d.Unreadable:
			f.Add(d.Field, "is not valid base64")
		case d.TooLarge:
			f.Addf(d.Field, "must be at most %d MiB", MaxDocumentBytes>>20)
		case d.Size == 0:
			f.Add(d.Field, "is empty")
		case d.SniffedType == "":
			f.Add(d.Field, "must be a JPEG or PNG image (or a PDF for the ID's sides)")
		case !verification.AllowedDocumentType(slot, d.SniffedType):
			f.Add(d.Field, "must be a JPEG or PNG image: a selfie cannot be a PDF")
		case declared != "" && declared != "application/octet-stream" && declared != d.SniffedType:
			f.Addf(d.Field, "holds %s content, not the %s it declares", d.SniffedType, excerpt(declared))
		}
	}
	return f.Err()
}

// Slot is the slot d fills (Validate has checked that it names one).
func (d *IdentityDocument) Slot() string {
	s, _ := verification.DocumentSlot(d.Field)
	return s
}

// Digest is the document's SHA-256 in hex.
func (d *IdentityDocument) Digest() string { return hex.EncodeToString(d.SHA256) }

// normalType is a declared content type without parameters, lower-case
// (image/jpg, a common misspelling, is JPEG).
func normalType(t string) string {
	t, _, _ = strings.Cut(t, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	if t == "image/jpg" || t == "image/pjpeg" {
		return verification.TypeJPEG
	}
	return t
}

// excerpt quotes a client-chosen name in an error message: at most 40
// characters, and nothing unprintable.
func excerpt(s string) string {
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return "a part's name"
	}
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
