package models

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type disputeDocumentKind struct{}

func (disputeDocumentKind) objectName() string { return "dispute_document" }

// DisputeDocument is a document the merchant adds to a dispute's evidence
// through POST /v1/disputes/{id}/documents, in the real service's SDK's
// shape. The spec describes no such resource: a document is kept as
// evidence metadata (the file's reference, its kind, the merchant's
// key-value pairs) inside the dispute's evidence, where the issuer's
// review reads the rest of it; the file itself is the merchant's to keep.
type DisputeDocument struct {
	ID           uuid.UUID                   `json:"id"`
	Object       Object[disputeDocumentKind] `json:"object"`
	DisputeID    uuid.UUID                   `json:"dispute_id"`
	FileID       string                      `json:"file_id"`
	DocumentType *string                     `json:"document_type"`
	Metadata     Metadata                    `json:"metadata"`
	Created      wire.Timestamp              `json:"created"`
	Livemode     bool                        `json:"livemode"`
}

// MaxDisputeDocuments bounds the documents one dispute keeps.
const MaxDisputeDocuments = 50

// CreateDisputeDocumentInput is the body of POST /v1/disputes/{id}/documents
// (the SDK's CreateDisputeDocumentParams).
type CreateDisputeDocumentInput struct {
	FileID       *string       `json:"file_id"`
	DocumentType *string       `json:"document_type"`
	Metadata     MetadataInput `json:"metadata"`
}

// Validate checks a document, every problem at once: a document names
// its file.
func (in *CreateDisputeDocumentInput) Validate() error {
	var f apierr.Fields
	checkText(&f, "file_id", in.FileID, maxEvidenceShort, true)
	checkText(&f, "document_type", in.DocumentType, 100, false)
	checkMetadata(&f, "metadata", in.Metadata)
	return f.Err()
}
