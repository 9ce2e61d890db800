package models

// The closed sets of an account's state beside its status.

// BlockedReasons is the closed set of reasons an account cannot transact.
var BlockedReasons = Enum(BlockedFraud, BlockedPlatformRestricted, BlockedMerchantRestricted, BlockedRestricted, BlockedDisabled)

// Restrictors is the closed set of who may restrict an account.
var Restrictors = Enum(RestrictorMerchant, RestrictorPlatform)

// OwnerRoles is the closed set of a beneficial owner's roles.
var OwnerRoles = Enum(RoleOwner, RoleController)
