package catalog

import (
	"context"
	"strings"

	"github.com/frame-oss/payments-server/internal/domain/phase"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// checkOrder applies the ordering rules to phases, answering the first
// problem as a validation error on path.
func checkOrder[R phaseRow](phases []R, path string) error {
	in := make([]phase.Phase, len(phases))
	for i, ph := range phases {
		t := ph.Terms()
		in[i] = phase.Phase{Ordinal: t.Ordinal, Indefinite: t.PeriodCount == nil}
	}
	if problems := phase.Check(in); len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.Message
		}
		return apierr.FieldError(path, strings.Join(msgs, "; "))
	}
	return nil
}

type phaseParams struct {
	ProductID string `json:"product_id"`
	ID        string `json:"id,omitempty"`
	Input     any    `json:"input,omitempty"`
}

// Create adds a phase to a product. Its ordinal must be free, and no
// phase can be added after an indefinite one (nor an indefinite one before
// others).
func (ps *Phases) Create(ctx context.Context, productID string, in *models.CreatePhaseInput) (*models.ProductPhase, error) {
	spec := ps.family.spec("create", productID, "", in, in.Validate)
	return ps.family.create(ctx, spec, productID, func(w *op.W, pr *models.Product) (*models.ProductPhase, error) {
		now := w.Now()
		ph := &models.ProductPhase{ID: ids.New(now), PhaseTerms: newPhaseTerms(in), ProductID: pr.ID, Currency: "USD",
			Metadata: in.NewMetadata(), Created: models.At(now), Updated: models.At(now)}
		if in.Currency != nil {
			ph.Currency = strings.ToUpper(*in.Currency)
		}
		ph.Livemode = pr.Livemode
		ph.SetInterval(pr.Recurring)
		return ph, nil
	})
}

// newPhaseTerms are the terms of a phase a valid create request makes.
func newPhaseTerms(in *models.CreatePhaseInput) models.PhaseTerms {
	t := models.PhaseTerms{Ordinal: *in.Ordinal, Name: in.Name, PricingType: *in.PricingType,
		Amount: in.AmountCents, PeriodCount: in.PeriodCount}
	if in.DiscountPercentage != nil {
		d := models.NormalizedPercentage(*in.DiscountPercentage)
		t.DiscountPercentage = &d
	}
	return t
}

// Update changes one phase.
func (ps *Phases) Update(ctx context.Context, productID, id string, in *models.UpdatePhaseInput) (*models.ProductPhase, error) {
	spec := ps.family.spec("update", productID, id, in, ps.family.updateCheck(in))
	return ps.family.update(ctx, spec, productID, id, in, "period_count")
}

// BulkUpdate changes up to models.MaxBulkPhases phases of a product at
// once and answers all of them; the ordering rules apply to the result.
func (ps *Phases) BulkUpdate(ctx context.Context, productID string, in *models.BulkUpdatePhasesInput) ([]*models.ProductPhase, int, error) {
	spec := ps.family.spec("bulk_update", productID, "", in, ps.family.bulkCheck(in.Phases, in.Validate))
	return ps.family.bulkUpdate(ctx, spec, productID, in.Phases)
}

// Delete removes one phase of a product and answers it, deleted: the
// real service's SDKs read the phase from the answer (docs/catalog.md).
func (ps *Phases) Delete(ctx context.Context, productID, id string) (*models.ProductPhase, error) {
	ph, err := ps.family.delete(ctx, ps.family.spec("delete", productID, id, nil, nil), productID, id)
	if err != nil {
		return nil, err
	}
	ph.Deleted = true
	return ph, nil
}
