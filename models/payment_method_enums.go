package models

// PaymentMethodTypes is the closed set of payment method types.
var PaymentMethodTypes = Enum(PaymentMethodCard, PaymentMethodACH)
