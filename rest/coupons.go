package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// couponRoutes mounts /v1/coupons, /v1/promotion_codes and /v1/discounts
// (spec doc 2 §4.9).
func couponRoutes(r chi.Router, svc *catalog.Service) {
	h := couponHandlers{svc.Coupons}
	r.Post("/v1/coupons", h.create)
	r.Get("/v1/coupons", list(svc.Coupons.List))
	r.Get("/v1/coupons/{id}", h.get)
	r.Patch("/v1/coupons/{id}", h.update)
	codes := promotionCodeHandlers{svc.PromotionCodes}
	r.Post("/v1/promotion_codes", codes.create)
	r.Get("/v1/promotion_codes", list(svc.PromotionCodes.List))
	r.Get("/v1/promotion_codes/{id}", codes.get)
	r.Patch("/v1/promotion_codes/{id}", codes.update)
	discounts := discountHandlers{svc.Discounts}
	r.Post("/v1/discounts/validate", discounts.validate)
	r.Get("/v1/discounts", list(svc.Discounts.List))
	r.Get("/v1/discounts/{id}", discounts.get)
}

type couponHandlers struct{ svc *catalog.Coupons }

func (h couponHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.CreateCouponInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, c, err)
}

func (h couponHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h couponHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateCouponInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.Update(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, c, err)
}

type promotionCodeHandlers struct{ svc *catalog.PromotionCodes }

func (h promotionCodeHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in models.PromotionCodeInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.Create(r.Context(), &in)
	respond(w, r, http.StatusCreated, c, err)
}

func (h promotionCodeHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, c, err)
}

func (h promotionCodeHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in models.PromotionCodeInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.svc.Update(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, c, err)
}

type discountHandlers struct{ svc *catalog.Discounts }

// validate answers 200: it judges codes and creates nothing.
func (h discountHandlers) validate(w http.ResponseWriter, r *http.Request) {
	var in models.ValidateDiscountsInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	v, err := h.svc.Validate(r.Context(), &in)
	respond(w, r, http.StatusOK, v, err)
}

func (h discountHandlers) get(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.Get(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, d, err)
}
