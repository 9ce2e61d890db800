package testenv

import "github.com/frame-oss/payments-server/models"

// DisputeCard is the sandbox card whose capture opens a chargeback on its
// charge (API-DECISIONS §6).
const DisputeCard = "4000000000000259"

// OpenDispute opens a sandbox dispute on chargeID through the test helper
// (POST /v1/test_helpers/charges/{id}/dispute), with reason when it is not
// empty; anything but 201 fails the test.
func (c *Client) OpenDispute(chargeID, reason string) *models.Dispute {
	c.env.T.Helper()
	return create[models.Dispute](c, "dispute", "/v1/test_helpers/charges/"+chargeID+"/dispute",
		fields{"reason": reason}.set())
}

// DisputeDocumentSpec describes a document added to a dispute's evidence
// (POST /v1/disputes/{id}/documents): the reference to a file the
// merchant keeps, its kind and metadata. Zero values are left out.
type DisputeDocumentSpec struct {
	FileID       string
	DocumentType string
	Metadata     map[string]string
}

// DisputeDocument is a document referring to fileID, of no stated kind.
func DisputeDocument(fileID string) DisputeDocumentSpec {
	return DisputeDocumentSpec{FileID: fileID}
}

// RESTBody renders s as a POST /v1/disputes/{id}/documents body.
func (s DisputeDocumentSpec) RESTBody() map[string]any {
	return fields{"metadata": s.Metadata, "file_id": s.FileID, "document_type": s.DocumentType}.set()
}

// CreateDisputeDocument adds spec's document to disputeID's evidence over
// REST; anything but 201 fails the test.
func (c *Client) CreateDisputeDocument(disputeID string, spec DisputeDocumentSpec) *models.DisputeDocument {
	c.env.T.Helper()
	return create[models.DisputeDocument](c, "dispute document", "/v1/disputes/"+disputeID+"/documents", spec.RESTBody())
}
