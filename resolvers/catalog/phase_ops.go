package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/frame-oss/payments-server/internal/domain/phase"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// checkOrder applies the ordering rules to phases, answering the first
// problem as a validation error on path.
func checkOrder(phases []*models.ProductPhase, path string) error {
	in := make([]phase.Phase, len(phases))
	for i, ph := range phases {
		in[i] = phase.Phase{Ordinal: ph.Ordinal, Indefinite: ph.PeriodCount == nil}
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
	spec := op.Spec{Name: "product.phase.create", Allow: secretOnly, Params: phaseParams{ProductID: productID, Input: in},
		Check: in.Validate}
	out, err := ps.write(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
		now := w.Now()
		ph := &models.ProductPhase{ID: ids.New(now), Ordinal: *in.Ordinal, Name: in.Name, PricingType: *in.PricingType,
			Amount: in.AmountCents, PeriodCount: in.PeriodCount, ProductID: pr.ID, Currency: "USD",
			Created: models.At(now), Updated: models.At(now)}
		if in.DiscountPercentage != nil {
			d := models.NormalizedPercentage(*in.DiscountPercentage)
			ph.DiscountPercentage = &d
		}
		if in.Currency != nil {
			ph.Currency = strings.ToUpper(*in.Currency)
		}
		ph.Livemode = pr.Livemode
		if err := checkOrder(append(phases, ph), "ordinal"); err != nil {
			return nil, err
		}
		if _, err := w.Tx.Insert(ph).Exec(ctx); err != nil {
			if c, ok := store.UniqueViolation(err); ok && c == "product_phases_ordinal_key" {
				return nil, apierr.FieldError("ordinal", fmt.Sprintf("ordinal %d is already taken", ph.Ordinal))
			}
			return nil, err
		}
		raw, err := events.Render(ph)
		if err != nil {
			return nil, err
		}
		w.Emit(EventProductPhaseCreated, ph.ID, raw, nil)
		return []*models.ProductPhase{ph}, nil
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// Update changes one phase.
func (ps *Phases) Update(ctx context.Context, productID, id string, in *models.UpdatePhaseInput) (*models.ProductPhase, error) {
	spec := op.Spec{Name: "product.phase.update", Allow: secretOnly, Params: phaseParams{ProductID: productID, ID: id, Input: in}}
	out, err := ps.write(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
		ph, err := findPhase(phases, id)
		if err != nil {
			return nil, err
		}
		var f apierr.Fields
		in.Validate(&f, "", ph.PricingType)
		if err := f.Err(); err != nil {
			return nil, err
		}
		if _, err := applyPhaseUpdates(ctx, w, phases, map[*models.ProductPhase]*models.UpdatePhaseInput{ph: in}, "period_count"); err != nil {
			return nil, err
		}
		return []*models.ProductPhase{ph}, nil
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// BulkUpdate changes several phases of a product at once and
// answers all of them; the ordering rules apply to the result.
func (ps *Phases) BulkUpdate(ctx context.Context, productID string, in *models.BulkUpdatePhasesInput) ([]*models.ProductPhase, int, error) {
	spec := op.Spec{Name: "product.phase.bulk_update", Allow: secretOnly, Params: phaseParams{ProductID: productID, Input: in}}
	var updated int
	out, err := ps.write(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
		var f apierr.Fields
		if in.Phases == nil {
			f.Add("phases", "is required")
		}
		edits := map[*models.ProductPhase]*models.UpdatePhaseInput{}
		for i, e := range in.Phases {
			path := fmt.Sprintf("phases.%d.", i)
			if e == nil || e.ID == nil {
				f.Add(path+"id", "is required")
				continue
			}
			ph, err := findPhase(phases, *e.ID)
			if err != nil {
				f.Add(path+"id", "is not a phase of this product")
				continue
			}
			if _, dup := edits[ph]; dup {
				f.Add(path+"id", "is listed twice")
				continue
			}
			e.Validate(&f, path, ph.PricingType)
			edits[ph] = e
		}
		if err := f.Err(); err != nil {
			return nil, err
		}
		n, err := applyPhaseUpdates(ctx, w, phases, edits, "phases")
		updated = n
		return phases, err
	})
	return out, updated, err
}

// applyPhaseUpdates applies edits, checks the ordering rules on the
// result, saves the phases that changed in one statement and announces
// each. It answers how many changed.
func applyPhaseUpdates(ctx context.Context, w *op.W, phases []*models.ProductPhase,
	edits map[*models.ProductPhase]*models.UpdatePhaseInput, orderPath string) (int, error) {
	type change struct {
		ph     *models.ProductPhase
		before []byte
	}
	var changes []change
	for _, ph := range phases {
		e, ok := edits[ph]
		if !ok {
			continue
		}
		before, err := events.Render(ph)
		if err != nil {
			return 0, err
		}
		e.ApplyTo(ph)
		changes = append(changes, change{ph, before})
	}
	if err := checkOrder(phases, orderPath); err != nil {
		return 0, err
	}
	var dirty []*models.ProductPhase
	for _, c := range changes {
		previous := c.ph.Updated
		c.ph.Updated = models.At(w.Now())
		after, err := events.Render(c.ph)
		if err != nil {
			return 0, err
		}
		prev, err := events.PreviousAttributes(c.before, after)
		if err != nil {
			return 0, err
		}
		if prev == nil {
			c.ph.Updated = previous
			continue
		}
		dirty = append(dirty, c.ph)
		w.Emit(EventProductPhaseUpdated, c.ph.ID, after, prev)
	}
	if len(dirty) > 0 {
		if _, err := w.Tx.Update(&dirty).Column("name", "period_count", "amount", "discount_percentage", "updated").
			Bulk().Exec(ctx); err != nil {
			return 0, err
		}
	}
	return len(dirty), nil
}

// Delete removes one phase of a product.
func (ps *Phases) Delete(ctx context.Context, productID, id string) error {
	spec := op.Spec{Name: "product.phase.delete", Allow: secretOnly, Params: phaseParams{ProductID: productID, ID: id}}
	_, err := ps.write(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
		ph, err := findPhase(phases, id)
		if err != nil {
			return nil, err
		}
		if _, err := w.Tx.Delete(ph).WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		raw, err := events.Render(ph)
		if err != nil {
			return nil, err
		}
		w.Emit(EventProductPhaseDeleted, ph.ID, raw, nil)
		return nil, nil
	})
	return err
}
