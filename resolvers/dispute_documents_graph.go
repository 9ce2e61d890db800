package resolvers

import "github.com/frame-oss/payments-server/models"

// disputeDocuments is Dispute.documents: the documents of the dispute's
// evidence, in the order they were added. They are part of the dispute's
// own row, so the edge reads nothing: a page of disputes with their
// documents costs the statement of the disputes alone.
func disputeDocuments(d *models.Dispute) []*models.DisputeDocument {
	docs := make([]*models.DisputeDocument, len(d.Evidence.Documents))
	for i := range d.Evidence.Documents {
		docs[i] = &d.Evidence.Documents[i]
	}
	return docs
}
