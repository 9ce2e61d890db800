package models

// WebhookEndpointKinds is the closed set of how an endpoint receives its
// deliveries.
var WebhookEndpointKinds = Enum(WebhookEndpointURL, WebhookEndpointListenSession)
