package money

import (
	"context"
	"fmt"

	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// AddDocument adds a document to the dispute's evidence
// (POST /v1/disputes/{id}/documents, the real service's SDK's
// createDocument): kept as evidence metadata, appended to
// evidence.documents (models.DisputeDocument). Like any evidence it is
// taken only while the dispute takes evidence (422 invalid_state after
// submission or once closed), and it does not submit: the next PATCH
// does. charge.dispute.updated announces it with previous_attributes.
func (ds *Disputes) AddDocument(ctx context.Context, id string, in *models.CreateDisputeDocumentInput) (*models.DisputeDocument, error) {
	spec := op.Spec{Name: "dispute.document.create", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, ds.Kit, spec, func(ctx context.Context, w *op.W) (*models.DisputeDocument, error) {
		d, err := disputeTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if _, ok := dispute.Next(string(d.Status), dispute.SaveEvidence); !ok {
			return nil, apierr.InvalidState("A dispute in status " + string(d.Status) + " takes no more evidence")
		}
		if len(d.Evidence.Documents) >= models.MaxDisputeDocuments {
			return nil, apierr.FieldError("file_id", fmt.Sprintf("a dispute keeps at most %d documents", models.MaxDisputeDocuments))
		}
		before, err := events.Render(d)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		doc := models.DisputeDocument{ID: ids.New(now), DisputeID: d.ID, FileID: *in.FileID, DocumentType: in.DocumentType,
			Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Livemode: d.Livemode}
		d.Evidence.Documents = append(d.Evidence.Documents, doc)
		d.Updated = models.At(now)
		d.Derive()
		prev, err := previousAttributes(before, d)
		if err != nil {
			return nil, err
		}
		if _, err := w.Tx.Update(d).Column("evidence", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		return &doc, emitDispute(w, EventDisputeUpdated, d, prev)
	})
}
