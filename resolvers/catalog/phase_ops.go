package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/phase"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ListPhases returns a product's phases in ordinal order.
func (s *Service) ListPhases(ctx context.Context, productID string) ([]*models.ProductPhase, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	t := s.DB.Tenant(p.Scope)
	pr, err := selectProduct(ctx, t, productID, false)
	if err != nil {
		return nil, err
	}
	return loadPhases(ctx, t, []uuid.UUID{pr.ID})
}

// PhasesOfProducts reads the phases of many products in one statement,
// grouped by product (the GraphQL Product.phases edge).
func (s *Service) PhasesOfProducts(ctx context.Context, productIDs []string) ([][]*models.ProductPhase, []error) {
	p, err := auth.Require(ctx, secretOnly...)
	out := make([][]*models.ProductPhase, len(productIDs))
	errs := make([]error, len(productIDs))
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	var want []uuid.UUID
	for _, id := range productIDs {
		if uid, ok := ids.Parse(id); ok {
			want = append(want, uid)
		}
	}
	phases, err := loadPhases(ctx, s.DB.Tenant(p.Scope), want)
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return out, errs
	}
	byProduct := map[string][]*models.ProductPhase{}
	for _, ph := range phases {
		byProduct[ph.ProductID.String()] = append(byProduct[ph.ProductID.String()], ph)
	}
	for i, id := range productIDs {
		out[i] = byProduct[id]
		if out[i] == nil {
			out[i] = []*models.ProductPhase{}
		}
	}
	return out, errs
}

// GetPhase returns one phase of a product.
func (s *Service) GetPhase(ctx context.Context, productID, id string) (*models.ProductPhase, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	t := s.DB.Tenant(p.Scope)
	pr, err := selectProduct(ctx, t, productID, false)
	if err != nil {
		return nil, err
	}
	phases, err := loadPhases(ctx, t, []uuid.UUID{pr.ID})
	if err != nil {
		return nil, err
	}
	return findPhase(phases, id)
}

func loadPhases(ctx context.Context, t *store.Tenant, productIDs []uuid.UUID) ([]*models.ProductPhase, error) {
	phases := []*models.ProductPhase{}
	if len(productIDs) == 0 {
		return phases, nil
	}
	err := t.Select(&phases).Where("ph.product_id IN (?)", bun.In(productIDs)).OrderExpr("ph.product_id, ph.ordinal").Scan(ctx)
	return phases, err
}

func findPhase(phases []*models.ProductPhase, id string) (*models.ProductPhase, error) {
	for _, ph := range phases {
		if ph.ID.String() == id {
			return ph, nil
		}
	}
	return nil, apierr.NotFound("phase", id)
}

// phaseWrite runs rule on a product's phases under the product's lock
// (which serializes every change to them), then checks the ordering rules
// on the result.
func (s *Service) phaseWrite(ctx context.Context, spec op.Spec, productID string,
	rule func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error)) ([]*models.ProductPhase, error) {
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) ([]*models.ProductPhase, error) {
		pr, err := selectProduct(ctx, w.Tx, productID, true)
		if err != nil {
			return nil, err
		}
		phases, err := loadPhases(ctx, w.Tx, []uuid.UUID{pr.ID})
		if err != nil {
			return nil, err
		}
		return rule(ctx, w, pr, phases)
	})
}

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

// CreatePhase adds a phase to a product. Its ordinal must be free, and no
// phase can be added after an indefinite one (nor an indefinite one before
// others).
func (s *Service) CreatePhase(ctx context.Context, productID string, in *models.CreatePhaseInput) (*models.ProductPhase, error) {
	spec := op.Spec{Name: "product.phase.create", Allow: secretOnly, Params: phaseParams{ProductID: productID, Input: in}}
	out, err := s.phaseWrite(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
		if err := in.Validate(); err != nil {
			return nil, err
		}
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

// UpdatePhase changes one phase.
func (s *Service) UpdatePhase(ctx context.Context, productID, id string, in *models.UpdatePhaseInput) (*models.ProductPhase, error) {
	spec := op.Spec{Name: "product.phase.update", Allow: secretOnly, Params: phaseParams{ProductID: productID, ID: id, Input: in}}
	out, err := s.phaseWrite(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
		ph, err := findPhase(phases, id)
		if err != nil {
			return nil, err
		}
		var f apierr.Fields
		in.Validate(&f, "", ph.PricingType)
		if err := f.Err(); err != nil {
			return nil, err
		}
		if _, err := s.applyPhaseUpdates(ctx, w, phases, map[*models.ProductPhase]*models.UpdatePhaseInput{ph: in}, "period_count"); err != nil {
			return nil, err
		}
		return []*models.ProductPhase{ph}, nil
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// BulkUpdatePhases changes several phases of a product at once and
// answers all of them; the ordering rules apply to the result.
func (s *Service) BulkUpdatePhases(ctx context.Context, productID string, in *models.BulkUpdatePhasesInput) ([]*models.ProductPhase, int, error) {
	spec := op.Spec{Name: "product.phase.bulk_update", Allow: secretOnly, Params: phaseParams{ProductID: productID, Input: in}}
	var updated int
	out, err := s.phaseWrite(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
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
		n, err := s.applyPhaseUpdates(ctx, w, phases, edits, "phases")
		updated = n
		return phases, err
	})
	return out, updated, err
}

// applyPhaseUpdates applies edits, checks the ordering rules on the
// result, saves the phases that changed in one statement and announces
// each. It answers how many changed.
func (s *Service) applyPhaseUpdates(ctx context.Context, w *op.W, phases []*models.ProductPhase,
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

// DeletePhase removes one phase of a product.
func (s *Service) DeletePhase(ctx context.Context, productID, id string) error {
	spec := op.Spec{Name: "product.phase.delete", Allow: secretOnly, Params: phaseParams{ProductID: productID, ID: id}}
	_, err := s.phaseWrite(ctx, spec, productID, func(ctx context.Context, w *op.W, pr *models.Product, phases []*models.ProductPhase) ([]*models.ProductPhase, error) {
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
