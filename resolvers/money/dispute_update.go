package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Update saves evidence on a dispute and, unless submit is false,
// submits it for review (PATCH /v1/disputes/{id}): needs_response becomes
// under_review and the sandbox issuer's decision is enqueued (a job:
// DecideDispute). Evidence members sent replace the saved ones, "" removes
// one. A dispute under review or closed takes no more evidence (422
// invalid_state). charge.dispute.updated announces a change, with
// previous_attributes.
func (ds *Disputes) Update(ctx context.Context, id string, in *models.UpdateDisputeInput) (*models.Dispute, error) {
	spec := op.Spec{Name: "dispute.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}, Check: in.Validate}
	return op.Write(ctx, ds.Kit, spec, func(ctx context.Context, w *op.W) (*models.Dispute, error) {
		d, err := disputeTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		action := dispute.SaveEvidence
		if in.Submits() {
			action = dispute.Submit
		}
		next, ok := dispute.Next(string(d.Status), action)
		if !ok {
			return nil, apierr.InvalidState("A dispute in status " + string(d.Status) + " takes no more evidence")
		}
		before, err := events.Render(d)
		if err != nil {
			return nil, err
		}
		d.Evidence.Merge(in.Evidence)
		d.Status = models.DisputeStatus(next)
		if action == dispute.Submit {
			at := models.At(w.Now())
			d.EvidenceSubmitted = &at
		}
		d.Derive()
		prev, err := previousAttributes(before, d)
		if err != nil || prev == nil {
			return d, err
		}
		d.Updated = models.At(w.Now())
		if _, err := w.Tx.Update(d).Column("status", "evidence", "evidence_submitted", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		if action == dispute.Submit {
			sc := w.Tx.Scope()
			if err := w.Enqueue(ctx, DisputeDecisionArgs{Tenant: jobs.TenantOf(sc), DisputeID: d.ID}); err != nil {
				return nil, err
			}
		}
		return d, emitDispute(w, EventDisputeUpdated, d, prev)
	})
}
