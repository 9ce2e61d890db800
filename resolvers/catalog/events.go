package catalog

// Event types of the area (docs/catalog.md lists them with what triggers
// each).
const (
	EventCustomerCreated   = "customer.created"
	EventCustomerUpdated   = "customer.updated"
	EventCustomerBlocked   = "customer.blocked"
	EventCustomerUnblocked = "customer.unblocked"
	EventCustomerDeleted   = "customer.deleted"

	EventProductCreated      = "product.created"
	EventProductUpdated      = "product.updated"
	EventProductDeleted      = "product.deleted"
	EventProductPhaseCreated = "product.phase.created"
	EventProductPhaseUpdated = "product.phase.updated"
	EventProductPhaseDeleted = "product.phase.deleted"

	EventCouponCreated        = "coupon.created"
	EventCouponUpdated        = "coupon.updated"
	EventPromotionCodeCreated = "promotion_code.created"
	EventPromotionCodeUpdated = "promotion_code.updated"
	EventDiscountCreated      = "discount.created"
)
