package models

// DisputeCategory is how a merchant sorts an issuer's dispute reasons
// (internal/domain/dispute's reason table names one for each code).
type DisputeCategory string

// Dispute categories.
const (
	DisputeCategoryFraud           DisputeCategory = "fraud"
	DisputeCategoryConsumerDispute DisputeCategory = "consumer_dispute"
	DisputeCategoryProcessingError DisputeCategory = "processing_error"
	DisputeCategoryGeneral         DisputeCategory = "general"
)

// DisputeCategories is the closed set of dispute categories.
var DisputeCategories = Enum(DisputeCategoryFraud, DisputeCategoryConsumerDispute, DisputeCategoryProcessingError, DisputeCategoryGeneral)
