package models

// BillingReasons is the closed set of why an invoice exists: by hand, a
// subscription's start, cycle or change, or usage.
var BillingReasons = Enum(BillingManual, BillingSubscriptionCreate, BillingSubscriptionCycle, BillingSubscriptionUpdate,
	BillingUsage)
