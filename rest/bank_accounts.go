package rest

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// bankAccountRoutes mounts /v1/bank_accounts (spec doc 1 §4.9) and the
// account's link token.
func bankAccountRoutes(r routes, svc *accounts.BankAccounts) {
	r.Post("/v1/bank_accounts", createOrFind(svc.Create, func(ba *models.BankAccount) bool { return ba.Existing }))
	r.Get("/v1/bank_accounts/{id}", get(svc.Get))
	r.Get("/v1/accounts/{id}/plaid_link_token", get(svc.LinkToken))
}
