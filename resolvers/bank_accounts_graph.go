package resolvers

import (
	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/models"
)

// Bank accounts load by id (nodes, bankAccount) and by account (the
// Account.bankAccounts edge).
var (
	bankLoader = loader("bankAccount", func(r *Resolver) loaders.Fetch[*models.BankAccount] {
		return r.Svc.Accounts.BankAccounts.ByIDs
	})
	_                    = node(bankLoader)
	banksOfAccountLoader = loader("bankAccountsOfAccount", func(r *Resolver) loaders.Fetch[[]*models.BankAccount] {
		return loaders.Fetch[[]*models.BankAccount](r.Svc.Accounts.BankAccounts.OfAccounts)
	})
)
