package models

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// maxFileIDLength bounds a document reference.
const maxFileIDLength = 255

// DocumentReferencesInput is the JSON form of an upload, the one the real
// service's SDK sends beside multipart (uploadDocuments: {documents:
// [{document_type, file_id, metadata}]}): each document named by a
// reference to a file the identity provider already holds, instead of its
// bytes. A reference fills its slot like an uploaded document; only the
// reference, its metadata and when it arrived are kept (there are no bytes
// to judge).
type DocumentReferencesInput struct {
	Documents []*DocumentReference `json:"documents"`
}

// DocumentReference is one document of a JSON upload.
type DocumentReference struct {
	// DocumentType names the slot, under the names a multipart part may
	// take (id_front, id_back, selfie and their spellings).
	DocumentType *string `json:"document_type"`
	// FileID is the provider's reference to the file.
	FileID *string `json:"file_id"`
	// Metadata is kept with the document's receipt (the SDK offers it).
	Metadata MetadataInput `json:"metadata"`
}

// Upload is the upload the references describe, in the order sent; past
// MaxDocumentsPerUpload the rest are dropped and TooMany set, as for
// multipart parts.
func (in *DocumentReferencesInput) Upload() *UploadIdentityDocumentsInput {
	up := &UploadIdentityDocumentsInput{}
	for _, ref := range in.Documents {
		if len(up.Documents) == MaxDocumentsPerUpload {
			up.TooMany = true
			break
		}
		if ref == nil {
			ref = &DocumentReference{}
		}
		d := &IdentityDocument{Reference: ref}
		if ref.DocumentType != nil {
			d.Field = *ref.DocumentType
		}
		up.Documents = append(up.Documents, d)
	}
	return up
}

// ReferenceMetadata is the metadata a referenced document carries (nil
// for uploaded bytes or none).
func (d *IdentityDocument) ReferenceMetadata() Metadata {
	if d.Reference == nil || len(d.Reference.Metadata) == 0 {
		return nil
	}
	return MergeMetadata(nil, d.Reference.Metadata)
}

// FileID is the reference a document carries ("" for uploaded bytes).
func (d *IdentityDocument) FileID() string {
	if d.Reference == nil || d.Reference.FileID == nil {
		return ""
	}
	return strings.TrimSpace(*d.Reference.FileID)
}

// checkReference reports the problems of the reference at index i of a
// JSON upload under documents.<i>.<member>; seen holds the slots filled by
// the documents before it.
func (d *IdentityDocument) checkReference(f *apierr.Fields, i int, seen map[string]bool) {
	p := fmt.Sprintf("documents.%d.", i)
	ref := d.Reference
	switch slot, ok := verification.DocumentSlot(d.Field); {
	case ref.DocumentType == nil:
		f.Add(p+"document_type", "is required: id_front, id_back or selfie")
	case !ok:
		f.Add(p+"document_type", excerpt(d.Field)+" is not a document this endpoint takes: id_front, id_back or selfie")
	case seen[slot]:
		f.Add(p+"document_type", "names a document already sent in this request")
	default:
		seen[slot] = true
	}
	id := d.FileID()
	switch {
	case id == "":
		f.Add(p+"file_id", "is required: a JSON upload names each document by its file_id "+
			"(send the files themselves as multipart/form-data)")
	case utf8.RuneCountInString(id) > maxFileIDLength ||
		strings.IndexFunc(id, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		f.Addf(p+"file_id", "must be at most %d printable characters", maxFileIDLength)
	}
	checkMetadata(f, p+"metadata", ref.Metadata)
	CheckMetadataSize(f, p+"metadata", MergeMetadata(nil, ref.Metadata))
}
