package money

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// FeePlans is the transfer fee plan family of the area: reads from the
// kit, and Create.
type FeePlans struct {
	op.Reader[models.TransferFeePlan, op.NoFilter]
}

var feePlanTable = &op.Table[models.TransferFeePlan]{Resource: "transfer_fee_plan"}

func newFeePlans(s *Service) *FeePlans {
	return &FeePlans{Reader: op.Read[models.TransferFeePlan, op.NoFilter](s.Kit, feePlanTable)}
}

// Create creates a transfer fee plan with its items. Plans are
// immutable: a price change is a new plan and an agreement pointing at it.
func (fs *FeePlans) Create(ctx context.Context, in *models.CreateFeePlanInput) (*models.TransferFeePlan, error) {
	var p *models.TransferFeePlan
	spec := op.Spec{Name: "transfer_fee_plan.create", Allow: secretOnly, Params: in,
		Check: func() (err error) { p, err = in.Build(); return err }}
	return op.Write(ctx, fs.Kit, spec, func(ctx context.Context, w *op.W) (*models.TransferFeePlan, error) {
		now := w.Now()
		p.ID, p.Created, p.Updated = ids.New(now), models.At(now), models.At(now)
		for _, it := range p.Items {
			it.ID, it.Created, it.Updated = ids.New(now), models.At(now), models.At(now)
		}
		if _, err := w.Tx.Insert(p).Exec(ctx); err != nil {
			return nil, err
		}
		return p, nil
	})
}

// feePlanIn reads the plan id within t, for the pricing of a charge or a
// payout: pricing runs on a tenant handle shared with other areas' writes
// (no op.W), and names the plan by the id it stored.
func feePlanIn(ctx context.Context, t *store.Tenant, id uuid.UUID) (*models.TransferFeePlan, error) {
	p := new(models.TransferFeePlan)
	if err := feePlanTable.Select(t, nil, p).Where("?TableAlias.id = ?", id).Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("transfer_fee_plan", id.String())
		}
		return nil, err
	}
	return p, nil
}
