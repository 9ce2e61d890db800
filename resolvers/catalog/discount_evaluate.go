package catalog

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/discount"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
)

// Reasons a promotion code does not apply (validation_result[].reason).
const (
	ReasonNotFound          = "not_found"
	ReasonDuplicate         = "duplicate"
	ReasonInactive          = "inactive"
	ReasonExpired           = "expired"
	ReasonMaxedOut          = "maxed_out"
	ReasonCouponInactive    = "coupon_inactive"
	ReasonCouponExpired     = "coupon_expired"
	ReasonCouponNotYetValid = "coupon_not_yet_valid"
	ReasonCouponMaxedOut    = "coupon_maxed_out"
	ReasonCustomerMismatch  = "customer_mismatch"
	ReasonCustomerRequired  = "customer_required"
	ReasonCustomerLimit     = "customer_limit_reached"
	ReasonNotFirstTxn       = "not_first_transaction"
	ReasonMinimumNotMet     = "minimum_amount_not_met"
	ReasonNotApplicable     = "not_applicable_to_products"
)

// order is what an evaluation looks at besides the codes.
type order struct {
	amount     int64
	customerID *uuid.UUID
	accountID  *uuid.UUID
	productIDs []uuid.UUID
	// firstTransaction says whether this is the payer's first transaction
	// (nil: judged from the payer's discount history).
	firstTransaction *bool
}

// evaluated is one code's evaluation.
type evaluated struct {
	result *models.CodeValidation
	code   *models.PromotionCode
	coupon *models.Coupon
}

// loadCodes reads the codes named (normalised) with their coupons; with
// lock, it locks the codes and then the coupons, each in id order, so that
// concurrent redemptions queue instead of deadlocking.
func loadCodes(ctx context.Context, t *store.Tenant, codes []string, lock bool) (map[string]*models.PromotionCode, map[uuid.UUID]*models.Coupon, error) {
	byCode := map[string]*models.PromotionCode{}
	coupons := map[uuid.UUID]*models.Coupon{}
	if len(codes) == 0 {
		return byCode, coupons, nil
	}
	var rows []*models.PromotionCode
	q := t.Select(&rows).Where("pc.code IN (?)", bun.In(codes)).OrderExpr("pc.id")
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, nil, err
	}
	var couponIDs []uuid.UUID
	for _, r := range rows {
		byCode[r.Code] = r
		couponIDs = append(couponIDs, r.CouponID)
	}
	if len(couponIDs) == 0 {
		return byCode, coupons, nil
	}
	var cs []*models.Coupon
	cq := t.Select(&cs).Where("co.id IN (?)", bun.In(couponIDs)).OrderExpr("co.id")
	if lock {
		cq = cq.For("UPDATE")
	}
	if err := cq.Scan(ctx); err != nil {
		return nil, nil, err
	}
	for _, c := range cs {
		coupons[c.ID] = c
	}
	return byCode, coupons, nil
}

// payerHistory counts, per promotion code, the payer's earlier
// redemptions, and whether the payer has any discount at all (the
// first-transaction rule's fallback while transactions live elsewhere).
func payerHistory(ctx context.Context, t *store.Tenant, o order) (map[uuid.UUID]int, bool, error) {
	counts := map[uuid.UUID]int{}
	if o.customerID == nil && o.accountID == nil {
		return counts, false, nil
	}
	var rows []struct {
		PromotionCodeID *uuid.UUID `bun:"promotion_code_id"`
		N               int        `bun:"n"`
	}
	q := t.Select((*models.Discount)(nil)).ColumnExpr("di.promotion_code_id, count(*) AS n").Group("di.promotion_code_id")
	if o.customerID != nil {
		q = q.Where("di.customer_id = ?", *o.customerID)
	} else {
		q = q.Where("di.account_id = ?", *o.accountID)
	}
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, false, err
	}
	found := false
	for _, r := range rows {
		found = true
		if r.PromotionCodeID != nil {
			counts[*r.PromotionCodeID] = r.N
		}
	}
	return counts, found, nil
}

// evaluate judges each code as given, in order, and prices the valid ones
// with the stacking rule (each applies to what the ones before it left).
func evaluate(now time.Time, raw []string, o order, byCode map[string]*models.PromotionCode,
	coupons map[uuid.UUID]*models.Coupon, history map[uuid.UUID]int, hasHistory bool) ([]*evaluated, int64) {
	out := make([]*evaluated, len(raw))
	seen := map[string]bool{}
	var valid []*evaluated
	for i, r := range raw {
		code := models.NormalizeCode(r)
		e := &evaluated{result: &models.CodeValidation{Code: code}}
		out[i] = e
		reason := ""
		pc, ok := byCode[code]
		switch {
		case seen[code]:
			reason = ReasonDuplicate
		case !ok:
			reason = ReasonNotFound
		}
		seen[code] = true
		if reason == "" {
			c := coupons[pc.CouponID]
			e.code, e.coupon = pc, c
			e.result.PromotionCodeID, e.result.CouponID = &pc.ID, &c.ID
			reason = judge(now, o, pc, c, history, hasHistory)
		}
		if reason != "" {
			e.result.Reason = &reason
			continue
		}
		e.result.Valid = true
		valid = append(valid, e)
	}
	terms := make([]discount.Coupon, len(valid))
	for i, e := range valid {
		terms[i] = discount.Coupon{Percentage: e.coupon.DiscountType == "percentage", Value: e.coupon.Value,
			Cap: e.coupon.DiscountCapCents}
	}
	each, total := discount.Stack(o.amount, terms)
	for i, e := range valid {
		n := i + 1
		e.result.ApplicationOrder, e.result.DiscountAmountCents = &n, each[i]
	}
	return out, total
}

// judge answers why a code does not apply to the order, or "".
func judge(now time.Time, o order, pc *models.PromotionCode, c *models.Coupon, history map[uuid.UUID]int, hasHistory bool) string {
	pc.Derive(now)
	c.Derive(now)
	switch {
	case !pc.Active:
		return ReasonInactive
	case pc.IsExpired:
		return ReasonExpired
	case pc.IsMaxedOut:
		return ReasonMaxedOut
	case c.Status != "active":
		return ReasonCouponInactive
	case c.IsExpired:
		return ReasonCouponExpired
	case c.NotYetValid(now):
		return ReasonCouponNotYetValid
	case c.IsMaxedOut:
		return ReasonCouponMaxedOut
	case pc.CustomerID != nil && (o.customerID == nil || *o.customerID != *pc.CustomerID):
		return ReasonCustomerMismatch
	case (pc.FirstTimeTransaction || pc.MaxCustomerRedemptions != nil) && o.customerID == nil && o.accountID == nil:
		return ReasonCustomerRequired
	case pc.MaxCustomerRedemptions != nil && history[pc.ID] >= *pc.MaxCustomerRedemptions:
		return ReasonCustomerLimit
	case pc.FirstTimeTransaction && !firstTransaction(o, hasHistory):
		return ReasonNotFirstTxn
	case pc.MinimumAmountCents != nil && o.amount < *pc.MinimumAmountCents,
		c.MinimumOrderAmountCents != nil && o.amount < *c.MinimumOrderAmountCents:
		return ReasonMinimumNotMet
	case c.ApplicableTo == "specific_products" && !slices.Contains(o.productIDs, *c.ProductID):
		return ReasonNotApplicable
	}
	return ""
}

func firstTransaction(o order, hasHistory bool) bool {
	if o.firstTransaction != nil {
		return *o.firstTransaction
	}
	return !hasHistory
}

// normalizedCodes are the codes as stored, for the look-up.
func normalizedCodes(raw []string) []string {
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		if c := models.NormalizeCode(r); c != "" && !slices.Contains(out, c) && len(c) <= 64 && !strings.ContainsRune(c, 0) {
			out = append(out, c)
		}
	}
	return out
}
