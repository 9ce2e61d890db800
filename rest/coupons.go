package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// couponRoutes mounts /v1/coupons, /v1/promotion_codes and /v1/discounts
// (spec doc 2 §4.9).
func couponRoutes(r chi.Router, svc *catalog.Service) {
	h := couponHandlers{svc}
	r.Post("/v1/coupons", h.createCoupon)
	r.Get("/v1/coupons", h.listCoupons)
	r.Get("/v1/coupons/{id}", h.getCoupon)
	r.Patch("/v1/coupons/{id}", h.updateCoupon)
	r.Post("/v1/promotion_codes", h.createCode)
	r.Get("/v1/promotion_codes", h.listCodes)
	r.Get("/v1/promotion_codes/{id}", h.getCode)
	r.Patch("/v1/promotion_codes/{id}", h.updateCode)
	r.Post("/v1/discounts/validate", h.validate)
	r.Get("/v1/discounts", h.listDiscounts)
	r.Get("/v1/discounts/{id}", h.getDiscount)
}

type couponHandlers struct{ svc *catalog.Service }

func (h couponHandlers) createCoupon(w http.ResponseWriter, r *http.Request) {
	var in models.CreateCouponInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.CreateCoupon(r.Context(), &in)
	respond(w, r, http.StatusCreated, c, err)
}

func (h couponHandlers) listCoupons(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := catalog.CouponFilter{Status: q.str("status"), DiscountType: q.str("discount_type"), ApplicableTo: q.str("applicable_to")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListCoupons(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h couponHandlers) getCoupon(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.GetCoupon(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h couponHandlers) updateCoupon(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateCouponInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.UpdateCoupon(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, c, err)
}

func (h couponHandlers) createCode(w http.ResponseWriter, r *http.Request) {
	var in models.PromotionCodeInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.CreatePromotionCode(r.Context(), &in)
	respond(w, r, http.StatusCreated, c, err)
}

func (h couponHandlers) listCodes(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := catalog.PromotionCodeFilter{CouponID: q.str("coupon_id"), Customer: q.str("customer"),
		Active: q.optBool("active"), FirstTimeTransaction: q.optBool("first_time_transaction")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListPromotionCodes(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h couponHandlers) getCode(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.GetPromotionCode(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h couponHandlers) updateCode(w http.ResponseWriter, r *http.Request) {
	var in models.PromotionCodeInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.UpdatePromotionCode(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, c, err)
}

// validate answers 200: it judges codes and creates nothing.
func (h couponHandlers) validate(w http.ResponseWriter, r *http.Request) {
	var in models.ValidateDiscountsInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	v, err := h.svc.ValidateDiscounts(r.Context(), &in)
	respond(w, r, http.StatusOK, v, err)
}

func (h couponHandlers) listDiscounts(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := catalog.DiscountFilter{CustomerID: q.str("customer_id"), AccountID: q.str("account_id")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListDiscounts(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h couponHandlers) getDiscount(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.GetDiscount(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, d, err)
}
