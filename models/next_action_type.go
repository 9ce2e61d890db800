package models

// NextActionType is what a transfer waits for the client to do.
type NextActionType string

// NextActionUsePlatformSDK is a 3-D Secure challenge the platform's SDK
// runs on the transfer's source card.
const NextActionUsePlatformSDK NextActionType = "use_platform_sdk"

// NextActionTypes is the closed set of a transfer's next action types.
var NextActionTypes = Enum(NextActionUsePlatformSDK)
