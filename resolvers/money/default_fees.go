package money

import (
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// InstallDefaultFees gives a merchant's mode what `merchants create
// --with-default-fees` promises (API-DECISIONS §9): a "Standard Platform
// Fee" plan (deduct; card charges 2.9 % + 30) with active charge and
// payout agreements effective at once, and for every time a test clock can
// hold (DefaultFeesEffective). The plan prices card charges only,
// as the decision states it; payouts and ACH charges need a plan with
// their items.
func InstallDefaultFees(ctx context.Context, k *op.Kit, scope store.Scope) error {
	return op.Background(ctx, k, scope, func(ctx context.Context, w *op.W) error {
		return InsertDefaultFees(ctx, w.Tx, w.Now())
	})
}

// DefaultFeesEffective is when the default agreements take effect: the
// earliest time a test clock can be set to (frozen_time 0), so that a
// charge on a clock set before the merchant was created finds them, as a
// charge on the server's clock does. An agreement a merchant makes itself
// takes effect when it says.
var DefaultFeesEffective = time.Unix(0, 0).UTC()

// InsertDefaultFees writes what InstallDefaultFees installs, stamped now,
// in the caller's transaction tx: `merchants create` writes it in the
// transaction that creates the merchant, so that the merchant and its fees
// commit together or not at all. It emits no events.
func InsertDefaultFees(ctx context.Context, tx *store.Tenant, now time.Time) error {
	name, mode := "Standard Platform Fee", models.FeeModeDeduct
	fixed, currency, pct := int64(30), "USD", "2.9"
	event, typ := models.BillableEventType(models.BillableChargeCard), models.FeeTypeFlatPlusPercentage
	p, err := (&models.CreateFeePlanInput{Name: &name, FeeApplicationMode: &mode, Items: []*models.FeePlanItemInput{{
		FeeType: &typ, AmountFixedCents: &fixed, AmountFixedCurrency: &currency,
		AmountPercentage: (*models.Decimal)(&pct), BillableEventType: &event}}}).Build()
	if err != nil {
		return err
	}
	p.ID, p.Created, p.Updated = ids.New(now), models.At(now), models.At(now)
	for _, it := range p.Items {
		it.ID, it.Created, it.Updated = ids.New(now), models.At(now), models.At(now)
	}
	if _, err := tx.Insert(p).Exec(ctx); err != nil {
		return err
	}
	for _, category := range []models.AgreementCategory{models.CategoryCharge, models.CategoryPayout} {
		a := &models.BillingAgreement{ID: ids.New(now), Status: models.AgreementActive, Category: category,
			EffectiveDate: models.ISOTime{Time: DefaultFeesEffective}, FeePlanID: p.ID, Created: models.At(now), Updated: models.At(now)}
		if _, err := tx.Insert(a).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
