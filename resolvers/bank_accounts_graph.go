package resolvers

import (
	"github.com/frame-oss/payments-server/models"
)

// Bank accounts load by id (nodes, bankAccount) and by account (the
// Account.bankAccounts edge).
var (
	bankLoader           = nodeLoader("bankAccount", func(r *Resolver) batch[*models.BankAccount] { return r.Svc.Accounts.BankAccounts.ByIDs })
	banksOfAccountLoader = loader("bankAccountsOfAccount", func(r *Resolver) batch[[]*models.BankAccount] { return r.Svc.Accounts.BankAccounts.OfAccounts })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(banksOfAccountLoader, "bankAccounts", func(a *models.Account) string { return a.ID.String() })
	_ = edge(accountLoader, "account", func(b *models.BankAccount) string { return idKey(b.AccountID) })
)
