package rest

import (
	"net/http"

	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// kycPrefillRoutes mounts /v1/accounts/{id}/kyc_prefill (spec doc 1 §4.7).
func kycPrefillRoutes(r routes, svc *accounts.Accounts) {
	r.Post("/v1/accounts/{id}/kyc_prefill/confirm", bodiless(http.StatusOK, svc.ConfirmKYCPrefill))
}
