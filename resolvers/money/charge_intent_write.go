package money

import (
	"context"
	"encoding/json"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// intentColumns are the columns a charge intent's writes change.
var intentColumns = []string{"status", "amount", "amount_before_discounts", "currency", "amount_captured", "amount_voided",
	"description", "failure_description", "receipt_email", "customer_id", "account_id", "payment_method_id", "charge_id",
	"shipping", "metadata", "billable_event_type", "fee_plan_id", "billing_agreement_id", "updated"}

// saveIntent writes the intent's changing columns and announces typ.
func (s *Service) saveIntent(ctx context.Context, w *op.W, ci *models.ChargeIntent, typ events.Type, prev map[string]any) error {
	ci.Updated = models.At(w.Now())
	if _, err := w.Tx.Update(ci).Column(intentColumns...).WherePK().Exec(ctx); err != nil {
		return err
	}
	return s.emitIntent(ctx, w, typ, ci, prev)
}

// emitIntent announces typ with the intent as REST renders it to a secret
// key (its payer's objects included), reference_id verbatim. The client
// secret is never in an event: events are stored and delivered.
func (s *Service) emitIntent(ctx context.Context, w *op.W, typ events.Type, ci *models.ChargeIntent, prev map[string]any) error {
	raw, err := s.renderIntent(ctx, w.Tx, ci)
	if err != nil {
		return err
	}
	w.Emit(typ, ci.ID, json.RawMessage(raw), prev)
	return nil
}

// renderIntent is the intent as a secret key reads it, without its client
// secret (events, previous_attributes).
func (s *Service) renderIntent(ctx context.Context, t *store.Tenant, ci *models.ChargeIntent) ([]byte, error) {
	if err := s.embedPayers(ctx, t, []*models.ChargeIntent{ci}); err != nil {
		return nil, err
	}
	ci.Derive()
	secret := ci.ClientSecret
	ci.ClientSecret = nil
	ci.SetPublic(false)
	raw, err := events.Render(ci)
	ci.ClientSecret = secret
	return raw, err
}

// lockIntent reads an intent with its payment method and charge, its row
// locked.
func lockIntent(ctx context.Context, w *op.W, id string) (*models.ChargeIntent, error) {
	return intentTable.Lock(ctx, w, id, op.LockUpdate)
}
