package money

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Agreements is the transfer billing agreement family of the area: reads
// from the kit (each agreement with its plan, in one statement), Create
// and Update.
type Agreements struct {
	op.Reader[models.BillingAgreement, op.NoFilter]
}

var agreementTable = &op.Table[models.BillingAgreement]{Resource: "transfer_billing_agreement",
	Columns: func(q *bun.SelectQuery) *bun.SelectQuery { return q.Relation("FeePlan") }}

func newAgreements(s *Service) *Agreements {
	return &Agreements{Reader: op.Read[models.BillingAgreement, op.NoFilter](s.Kit, agreementTable)}
}

// Create binds a plan to the merchant's charges or payouts (or to one
// account's). The plan and the account must be the caller's.
func (as *Agreements) Create(ctx context.Context, in *models.CreateAgreementInput) (*models.BillingAgreement, error) {
	var (
		a         *models.BillingAgreement
		accountID *uuid.UUID
		planID    uuid.UUID
	)
	spec := op.Spec{Name: "transfer_billing_agreement.create", Allow: secretOnly, Params: in,
		Check: func() (err error) { a, planID, accountID, err = in.Build(); return err }}
	return op.Write(ctx, as.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingAgreement, error) {
		plan, err := feePlanTable.Find(ctx, w, planID.String())
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

// Update changes an agreement's status, the only member that changes:
// pending may become active or inactive, active and inactive switch
// between themselves, and nothing returns to pending (422 invalid_state).
// Setting the current status changes nothing.
func (as *Agreements) Update(ctx context.Context, id string, in *models.UpdateAgreementInput) (*models.BillingAgreement, error) {
	spec := op.Spec{Name: "transfer_billing_agreement.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in},
		Check: in.Validate}
	return op.Write(ctx, as.Kit, spec, func(ctx context.Context, w *op.W) (*models.BillingAgreement, error) {
		a, err := agreementTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		if *in.Status == a.Status {
			return a, nil
		}
		if *in.Status == models.AgreementPending {
			return nil, apierr.InvalidState("A " + string(a.Status) + " billing agreement cannot return to pending")
		}
		a.Status, a.Updated = *in.Status, models.At(w.Now())
		if _, err := w.Tx.Update(a).Column("status", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		return a, nil
	})
}
