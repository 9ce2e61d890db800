package catalog

import "github.com/frame-oss/payments-server/internal/platform/events"

// Event types of the area (docs/catalog.md says when each is emitted).
var (
	EventCustomerCreated   = events.Declare("customer.created", "a customer is created")
	EventCustomerUpdated   = events.Declare("customer.updated", "a customer changes")
	EventCustomerBlocked   = events.Declare("customer.blocked", "a customer is blocked (its payment methods are blocked with it)")
	EventCustomerUnblocked = events.Declare("customer.unblocked", "a blocked customer is unblocked")
	EventCustomerDeleted   = events.Declare("customer.deleted", "a customer is deleted")

	EventProductCreated      = events.Declare("product.created", "a product is created")
	EventProductUpdated      = events.Declare("product.updated", "a product changes")
	EventProductDeleted      = events.Declare("product.deleted", "a product is deleted")
	EventProductPhaseCreated = events.Declare("product.phase.created", "a phase is added to a product")
	EventProductPhaseUpdated = events.Declare("product.phase.updated", "a product's phase changes")
	EventProductPhaseDeleted = events.Declare("product.phase.deleted", "a phase is removed from a product")

	EventCouponCreated        = events.Declare("coupon.created", "a coupon is created")
	EventCouponUpdated        = events.Declare("coupon.updated", "a coupon changes")
	EventPromotionCodeCreated = events.Declare("promotion_code.created", "a promotion code is created")
	EventPromotionCodeUpdated = events.Declare("promotion_code.updated", "a promotion code changes")
	EventDiscountCreated      = events.Declare("discount.created", "a promotion code is redeemed (one discount record per code)")
)
