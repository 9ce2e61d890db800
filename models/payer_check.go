package models

import "github.com/frame-oss/payments-server/internal/platform/apierr"

// Invoices, subscriptions, billing credits and usage are billed to one
// payer, a customer or an account. Their bodies name it the same way and
// are refused the same way, but for the words of a missing payer, which
// each resource's contract fixes.

// Problems reported on customer when neither payer is sent.
const (
	payerRequired          = "or account is required"
	payerRequiredAlone     = "is required"
	payerRequiredOrAccount = "is required (or account)"
)

// checkOnePayer refuses a customer given with an account and checks both
// ids. missing is the problem reported on customer when neither is given,
// "" where neither may be.
func checkOnePayer(f *apierr.Fields, customer, account *string, missing string) {
	switch {
	case customer != nil && account != nil:
		f.Add("customer", "cannot be given with account")
	case missing != "" && customer == nil && account == nil:
		f.Add("customer", missing)
	}
	checkText(f, "customer", customer, 64, false)
	checkText(f, "account", account, 64, false)
}
