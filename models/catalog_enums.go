package models

// The closed sets of products and their phases.

// PurchaseTypes is the closed set of how a product is bought.
var PurchaseTypes = Enum(PurchaseOneTime, PurchaseRecurring)

// RecurringIntervals is the closed set of a recurring product's intervals.
var RecurringIntervals = Enum(IntervalDaily, IntervalWeekly, IntervalMonthly, IntervalYearly, IntervalEvery3Months, IntervalEvery6Months)

// PricingTypes is the closed set of how a phase is priced.
var PricingTypes = Enum(PricingStatic, PricingRelative)
