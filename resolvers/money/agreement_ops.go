package money

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CreateAgreement binds a plan to the merchant's charges or payouts (or to
// one account's). The plan and the account must be the caller's.
func (s *Service) CreateAgreement(ctx context.Context, in *models.CreateAgreementInput) (*models.BillingAgreement, error) {
	spec := op.Spec{Name: "transfer_billing_agreement.create", Allow: secretOnly, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingAgreement, error) {
		a, planID, accountID, err := in.Build()
		if err != nil {
			return nil, err
		}
		plan, err := selectFeePlanByID(ctx, w.Tx, planID, *in.TransferFeePlanID)
		if err != nil {
			return nil, apierr.FieldError("transfer_fee_plan_id", "is not a transfer fee plan of this merchant and mode")
		}
		if accountID != nil {
			n, err := w.Tx.Select((*models.Account)(nil)).Where("a.id = ?", *accountID).Count(ctx)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return nil, apierr.FieldError("account_id", "is not an account of this merchant and mode")
			}
		}
		now := w.Now()
		a.ID, a.FeePlanID, a.FeePlan, a.AccountID = ids.New(now), plan.ID, plan, accountID
		a.Created, a.Updated = models.At(now), models.At(now)
		if _, err := w.Tx.Insert(a).Exec(ctx); err != nil {
			return nil, err
		}
		return a, nil
	})
}

// UpdateAgreement changes an agreement's status, the only member that
// changes: pending may become active or inactive, active and inactive
// switch between themselves, and nothing returns to pending (422
// invalid_state). Setting the current status changes nothing.
func (s *Service) UpdateAgreement(ctx context.Context, id string, in *models.UpdateAgreementInput) (*models.BillingAgreement, error) {
	spec := op.Spec{Name: "transfer_billing_agreement.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingAgreement, error) {
		a, err := selectAgreement(ctx, w.Tx, id, true)
		if err != nil {
			return nil, err
		}
		if err := in.Validate(); err != nil {
			return nil, err
		}
		if *in.Status == a.Status {
			return a, nil
		}
		if *in.Status == models.AgreementPending {
			return nil, apierr.InvalidState("A " + a.Status + " billing agreement cannot return to pending")
		}
		a.Status, a.Updated = *in.Status, models.At(w.Now())
		if _, err := w.Tx.Update(a).Column("status", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		return a, nil
	})
}

// GetAgreement returns one agreement with its plan.
func (s *Service) GetAgreement(ctx context.Context, id string) (*models.BillingAgreement, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	return selectAgreement(ctx, s.DB.Tenant(p.Scope), id, false)
}

// AgreementsByIDs reads many agreements, with their plans, in one
// statement.
func (s *Service) AgreementsByIDs(ctx context.Context, idList []string) ([]*models.BillingAgreement, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	return op.ByIDs(idList, "transfer_billing_agreement", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.BillingAgreement, error) {
		var rows []*models.BillingAgreement
		if err := s.DB.Tenant(p.Scope).Select(&rows).Relation("FeePlan").Where("ba.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		found := make(map[uuid.UUID]*models.BillingAgreement, len(rows))
		for _, r := range rows {
			found[r.ID] = r
		}
		return found, nil
	})
}

// ListAgreements is the one list of agreements, newest first, each with
// its plan (one statement).
func (s *Service) ListAgreements(ctx context.Context, lp op.ListParams) (op.Page[*models.BillingAgreement], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.BillingAgreement]{}, err
	}
	q := s.DB.Tenant(p.Scope).Select((*models.BillingAgreement)(nil)).Relation("FeePlan")
	return op.List(ctx, q, "ba", lp, func(a *models.BillingAgreement) op.Position {
		return op.Position{Created: a.Created.Time, ID: a.ID}
	})
}

func selectAgreement(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.BillingAgreement, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("transfer_billing_agreement", id)
	}
	a := new(models.BillingAgreement)
	q := t.Select(a).Relation("FeePlan").Where("ba.id = ?", uid)
	if lock {
		q = q.For("UPDATE OF ba")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("transfer_billing_agreement", id)
		}
		return nil, err
	}
	return a, nil
}
