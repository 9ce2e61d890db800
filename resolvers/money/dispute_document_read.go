package money

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// DocumentsByIDs reads dispute documents by their own ids, one document or
// one resource_missing per id (node(id:)). A document has no row of its
// own: it lives in its dispute's evidence, so the read is the dispute's,
// with the dispute's credential kinds and tenant scope, in one statement
// that finds the disputes whose evidence holds any of the ids: a
// containment test on the documents array per id, which the GIN index
// disputes_evidence_documents_idx answers (node(id:) of an unknown id
// reaches this look-up, and must not scan every dispute).
func (ds *Disputes) DocumentsByIDs(ctx context.Context, idList []string) ([]*models.DisputeDocument, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "dispute_document", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.DisputeDocument, error) {
		var rows []*models.Dispute
		if err := disputeTable.Select(ds.Kit.DB.Tenant(p.Scope), p, &rows).
			Where("?TableAlias.evidence -> 'documents' @> ANY(ARRAY[?]::jsonb[])", bun.In(documentProbes(want))).
			Scan(ctx); err != nil {
			return nil, err
		}
		wanted := make(map[uuid.UUID]bool, len(want))
		for _, id := range want {
			wanted[id] = true
		}
		found := make(map[uuid.UUID]*models.DisputeDocument, len(want))
		for _, d := range rows {
			for i := range d.Evidence.Documents {
				if doc := &d.Evidence.Documents[i]; wanted[doc.ID] {
					found[doc.ID] = doc
				}
			}
		}
		return found, nil
	})
}

// documentProbes are, per id, the JSON array that a documents array
// holding a document of that id contains: [{"id": "<id>"}].
func documentProbes(idList []uuid.UUID) []string {
	out := make([]string, len(idList))
	for i, id := range idList {
		out[i] = `[{"id":"` + id.String() + `"}]`
	}
	return out
}
