package verification

import "bytes"

// Customer identity verification (legacy, payer-side; spec doc 1 §2.7,
// §4.10) statuses. A verification is incomplete until the identity
// provider has what it needs (the ID's two sides and a selfie), pending
// while the provider judges, then verified or failed.
const (
	CustomerIncomplete = "incomplete"
	CustomerPending    = "pending"
	CustomerVerified   = "verified"
	CustomerFailed     = "failed"
)

// customerOutcomes are the phone numbers (E.164) whose payers the sandbox
// identity provider does not verify (docs/sandbox.md): the document check's
// numbers and the KYC personas that fail or wait for a review.
var customerOutcomes = map[string]string{
	"+12001003001": CustomerFailed,
	"+12001003002": CustomerFailed,
	"+17742345678": CustomerFailed,
	"+12001001691": CustomerFailed,
	"+12001003003": CustomerPending,
	"+12001001696": CustomerPending,
}

// CustomerOutcome is how the sandbox identity provider judges the payer
// whose phone is e164 ("" when none was given): verified unless the
// number is one of the documented ones. CustomerPending means a manual
// review that the sandbox never resolves.
func CustomerOutcome(e164 string) string {
	return outcomeOf(customerOutcomes, e164, CustomerVerified)
}

// Identity document slots: what an upload carries.
const (
	DocumentIDFront = "id_front"
	DocumentIDBack  = "id_back"
	DocumentSelfie  = "selfie"
)

// DocumentSlots are the documents a verification needs, in order.
var DocumentSlots = []string{DocumentIDFront, DocumentIDBack, DocumentSelfie}

// documentFields maps the multipart field names an upload may use to the
// slot they fill. The spec names the documents (ID front and back, a
// selfie) but not the fields; the real service's clients name a part after
// its document type, so the common spellings are all accepted.
var documentFields = map[string]string{
	"id_front": DocumentIDFront, "front": DocumentIDFront, "document_front": DocumentIDFront,
	"drivers_license_front": DocumentIDFront, "identity_document_front": DocumentIDFront,
	"id_back": DocumentIDBack, "back": DocumentIDBack, "document_back": DocumentIDBack,
	"drivers_license_back": DocumentIDBack, "identity_document_back": DocumentIDBack,
	"selfie": DocumentSelfie, "face": DocumentSelfie, "selfie_photo": DocumentSelfie,
}

// DocumentSlot is the slot a field name fills (false for a name no slot
// takes).
func DocumentSlot(field string) (string, bool) {
	s, ok := documentFields[field]
	return s, ok
}

// Document content types.
const (
	TypeJPEG = "image/jpeg"
	TypePNG  = "image/png"
	TypePDF  = "application/pdf"
)

// AllowedDocumentType reports whether a document of contentType may fill
// slot: JPEG or PNG images, and for the ID's sides also a PDF scan.
func AllowedDocumentType(slot, contentType string) bool {
	switch contentType {
	case TypeJPEG, TypePNG:
		return true
	case TypePDF:
		return slot != DocumentSelfie
	}
	return false
}

// SniffDocument names the content type the first bytes of a file show
// (JPEG, PNG or PDF), "" for anything else. It trusts the bytes, not what
// the client declared.
func SniffDocument(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return TypeJPEG
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return TypePNG
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return TypePDF
	}
	return ""
}
