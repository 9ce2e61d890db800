package rest

import (
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// couponRoutes mounts /v1/coupons, /v1/promotion_codes and /v1/discounts
// (spec doc 2 §4.9).
func couponRoutes(r routes, svc *catalog.Service) {
	r.Post("/v1/coupons", create(svc.Coupons.Create))
	r.Get("/v1/coupons", list(svc.Coupons.List))
	r.Get("/v1/coupons/{id}", get(svc.Coupons.Get))
	r.Patch("/v1/coupons/{id}", update(svc.Coupons.Update))
	r.Post("/v1/promotion_codes", create(svc.PromotionCodes.Create))
	r.Get("/v1/promotion_codes", list(svc.PromotionCodes.List))
	r.Get("/v1/promotion_codes/{id}", get(svc.PromotionCodes.Get))
	r.Patch("/v1/promotion_codes/{id}", update(svc.PromotionCodes.Update))
	// validate answers 200: it judges codes and creates nothing.
	r.Post("/v1/discounts/validate", call(svc.Discounts.Validate))
	r.Get("/v1/discounts", list(svc.Discounts.List))
	r.Get("/v1/discounts/{id}", get(svc.Discounts.Get))
}
