package models

import "github.com/google/uuid"

// APIVersion is the API version the server speaks, as GET /v1/me reports
// it: the version in the paths. The API has no dated versions.
const APIVersion = "v1"

// Viewer is the caller as its credential makes it (GET /v1/me, the GraphQL
// viewer): its merchant and whether it acts in the sandbox. The real
// service's CLI logs in with it and refuses a credential whose DevMode is
// false (docs/decisions.md, "The CLI").
type Viewer struct {
	MerchantID   uuid.UUID `json:"merchant_id"`
	MerchantName string    `json:"merchant_name"`
	// DevMode is true for sandbox keys, false for production keys.
	DevMode    bool   `json:"dev_mode"`
	APIVersion string `json:"api_version"`
}
