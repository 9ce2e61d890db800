package verification

import "strings"

// The sandbox bank-linking processor (API-DECISIONS §6): processor
// "sandbox", tokens `sandbox-token-<routing>-<account>` for the ACH test
// accounts, and the link tokens this server hands out
// (`link-sandbox-<account id>`), which link the succeeding test account.
const (
	BankProcessor       = "sandbox"
	TestRouting         = "110000000"
	TestAccountSucceeds = "000123456789"
	linkTokenPrefix     = "link-sandbox-"
	processorPrefix     = "sandbox-token-"
)

// testAccounts are the ACH test accounts; the ones a processor would not
// link (closed, missing) carry why.
var testAccounts = map[string]string{
	TestAccountSucceeds: "",
	"000111111113":      "the bank reports this account as closed",
	"000111111116":      "the bank reports no such account",
	"000222222227":      "", // links; debits fail with insufficient_funds
	"000333333335":      "", // links; debits fail with debit_not_authorized
}

// LinkedAccount is what the sandbox processor answers for a token.
type LinkedAccount struct {
	Routing, Number string
	BankName        string
	AccountType     string // checking
}

// LinkToken is the sandbox link token of an account.
func LinkToken(accountID string) string { return linkTokenPrefix + accountID }

// ExchangeToken resolves a processor token, for the account accountID
// (a link token only works for its own account). problem explains a
// refusal.
func ExchangeToken(token, accountID string) (acct LinkedAccount, problem string) {
	if strings.HasPrefix(token, linkTokenPrefix) {
		if accountID == "" || token != LinkToken(accountID) {
			return acct, "is a link token of another account"
		}
		return linked(TestRouting, TestAccountSucceeds), ""
	}
	rest, ok := strings.CutPrefix(token, processorPrefix)
	routing, number, ok2 := strings.Cut(rest, "-")
	if !ok || !ok2 {
		return acct, "is not a sandbox processor token (sandbox-token-<routing>-<account>)"
	}
	why, known := testAccounts[number]
	switch {
	case routing != TestRouting || !known:
		return acct, "does not name an ACH test account (routing 110000000, docs/sandbox.md)"
	case why != "":
		return acct, why
	}
	return linked(routing, number), ""
}

func linked(routing, number string) LinkedAccount {
	return LinkedAccount{Routing: routing, Number: number, BankName: "Sandbox Bank", AccountType: "checking"}
}
