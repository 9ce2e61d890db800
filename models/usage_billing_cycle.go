package models

// UsageBillingCycle is the cycle an auto-charge threshold counts usage
// over.
type UsageBillingCycle string

// BillingCycleMonthly is the cycle of an auto-charge threshold: the
// calendar month in UTC, on the payer's clock.
const BillingCycleMonthly UsageBillingCycle = "monthly"

// UsageBillingCycles is the closed set of usage billing cycles.
var UsageBillingCycles = Enum(BillingCycleMonthly)
