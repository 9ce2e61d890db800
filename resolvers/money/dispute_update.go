package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/dispute"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// UpdateDispute saves evidence on a dispute and, unless submit is false,
// submits it for review (PATCH /v1/disputes/{id}): needs_response becomes
// under_review and the sandbox issuer's decision is enqueued (a job:
// DecideDispute). Evidence members sent replace the saved ones, "" removes
// one. A dispute under review or closed takes no more evidence (422
// invalid_state). charge.dispute.updated announces a change, with
// previous_attributes.
func (s *Service) UpdateDispute(ctx context.Context, id string, in *models.UpdateDisputeInput) (*models.Dispute, error) {
	spec := op.Spec{Name: "dispute.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Dispute, error) {
		if err := in.Validate(); err != nil {
			return nil, err
		}
		d, err := selectDispute(ctx, w.Tx, id, true)
		if err != nil {
			return nil, err
		}
		action := dispute.SaveEvidence
		if in.Submits() {
			action = dispute.Submit
		}
		next, ok := dispute.Next(d.Status, action)
		if !ok {
			return nil, apierr.InvalidState("A dispute in status " + d.Status + " takes no more evidence")
		}
		before, err := events.Render(d)
		if err != nil {
			return nil, err
		}
		d.Evidence.Merge(in.Evidence)
		d.Status = next
		if action == dispute.Submit {
			at := models.At(w.Now())
			d.EvidenceSubmitted = &at
		}
		d.Derive()
		after, err := events.Render(d)
		if err != nil {
			return nil, err
		}
		prev, err := events.PreviousAttributes(before, after)
		if err != nil || prev == nil {
			return d, err
		}
		d.Updated = models.At(w.Now())
		if _, err := w.Tx.Update(d).Column("status", "evidence", "evidence_submitted", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		if action == dispute.Submit {
			sc := w.Tx.Scope()
			if err := w.Enqueue(ctx, DisputeDecisionArgs{MerchantID: sc.MerchantID, Livemode: sc.Livemode, DisputeID: d.ID}); err != nil {
				return nil, err
			}
		}
		return d, emitDispute(w, EventDisputeUpdated, d, prev)
	})
}

// selectDispute reads one dispute, its row locked when lock.
func selectDispute(ctx context.Context, tn *store.Tenant, id string, lock bool) (*models.Dispute, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("dispute", id)
	}
	d := new(models.Dispute)
	q := tn.Select(d).Where("dp.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("dispute", id)
		}
		return nil, err
	}
	d.Derive()
	return d, nil
}
