// Package bank holds the pure rules of US bank accounts: the ABA routing
// number checksum, account number shape, the sandbox's test accounts
// (API-DECISIONS §6) and its bank-linking tokens.
package bank

import (
	"strings"
)

// ValidRouting reports whether s is nine digits passing the ABA checksum:
// 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10.
func ValidRouting(s string) bool {
	if len(s) != 9 || !digits(s) {
		return false
	}
	d := func(i int) int { return int(s[i] - '0') }
	sum := 3*(d(0)+d(3)+d(6)) + 7*(d(1)+d(4)+d(7)) + d(2) + d(5) + d(8)
	return sum%10 == 0
}

// ValidAccountNumber reports whether s is 4 to 17 digits.
func ValidAccountNumber(s string) bool {
	return len(s) >= 4 && len(s) <= 17 && digits(s)
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// TestRouting is the sandbox's test bank.
const TestRouting = "110000000"

// TestBankName is the name the sandbox gives its test bank.
const TestBankName = "Sandbox Test Bank"

// testOutcomes are what the sandbox processor answers for each test
// account at the test bank ("" succeeds).
var testOutcomes = map[string]string{
	"000123456789": "",
	"000111111113": "account_closed",
	"000111111116": "no_account",
	"000222222227": "insufficient_funds",
	"000333333335": "debit_not_authorized",
}

// TestAccount reports whether routing/account is a sandbox test account,
// and its outcome.
func TestAccount(routing, account string) (outcome string, ok bool) {
	if routing != TestRouting {
		return "", false
	}
	outcome, ok = testOutcomes[account]
	return outcome, ok
}

// TestAccounts lists the test account numbers.
func TestAccounts() []string {
	return []string{"000123456789", "000111111113", "000111111116", "000222222227", "000333333335"}
}

// SandboxTokenPrefix starts a sandbox bank-linking token.
const SandboxTokenPrefix = "sandbox-token-"

// ParseSandboxToken reads a sandbox bank-linking token,
// `sandbox-token-<routing>-<account>`, which links that account.
func ParseSandboxToken(token string) (routing, account string, ok bool) {
	rest, found := strings.CutPrefix(token, SandboxTokenPrefix)
	if !found {
		return "", "", false
	}
	routing, account, found = strings.Cut(rest, "-")
	if !found || !ValidRouting(routing) || !ValidAccountNumber(account) {
		return "", "", false
	}
	return routing, account, true
}
