package models

import "github.com/frame-oss/payments-server/internal/domain/funding"

// FundingCadence is how often a payout funding schedule runs
// (internal/domain/funding's cadences).
type FundingCadence string

// Funding cadences (spec doc 2 §4.7).
const (
	CadenceDaily   = FundingCadence(funding.Daily)
	CadenceWeekly  = FundingCadence(funding.Weekly)
	CadenceMonthly = FundingCadence(funding.Monthly)
)

// FundingCadences is the closed set of funding cadences.
var FundingCadences = Enum(CadenceDaily, CadenceWeekly, CadenceMonthly)
