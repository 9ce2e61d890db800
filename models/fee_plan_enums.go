package models

import "github.com/frame-oss/payments-server/internal/domain/fees"

// FeeApplicationMode is who pays a transfer fee plan's fees
// (internal/domain/fees' modes).
type FeeApplicationMode string

// Fee application modes (API-DECISIONS §4).
const (
	FeeModeDeduct = FeeApplicationMode(fees.Deduct)
	FeeModeAddOn  = FeeApplicationMode(fees.AddOn)
	FeeModeAbsorb = FeeApplicationMode(fees.Absorb)
)

// FeeApplicationModes is the closed set of fee application modes.
var FeeApplicationModes = Enum(FeeModeDeduct, FeeModeAddOn, FeeModeAbsorb)

// FeeType is how a fee plan item prices its event (internal/domain/fees'
// item types).
type FeeType string

// Fee item types (API-DECISIONS §4).
const (
	FeeTypeFlat               = FeeType(fees.Flat)
	FeeTypePercentage         = FeeType(fees.Percentage)
	FeeTypeFlatPlusPercentage = FeeType(fees.FlatPlusPercentage)
)

// FeeTypes is the closed set of fee item types.
var FeeTypes = Enum(FeeTypeFlat, FeeTypePercentage, FeeTypeFlatPlusPercentage)
