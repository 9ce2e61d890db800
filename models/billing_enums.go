package models

// The closed sets of invoices, subscriptions and metering.

// CollectionMethods is the closed set of how an invoice is collected.
var CollectionMethods = Enum(ChargeAutomatically, RequestPayment)

// ProrationBehaviors is the closed set of how a product swap is settled.
var ProrationBehaviors = Enum(CreateProrations, AlwaysInvoice, ProrateNone)

// DurationTypes is the closed set of how long a subscription phase lasts.
var DurationTypes = Enum(DurationFinite, DurationInfinite)

// MeterAggregations is the closed set of how a meter aggregates events.
var MeterAggregations = Enum(AggregateSum, AggregateCount, AggregateMax)
