package verification

import "testing"

func TestExchangeToken(t *testing.T) {
	const acct = "0198c0de-0000-7000-8000-000000000001"
	cases := []struct {
		token, account, number string
		refused                bool
	}{
		{"sandbox-token-110000000-000123456789", "", "000123456789", false},
		{"sandbox-token-110000000-000222222227", acct, "000222222227", false},
		{"sandbox-token-110000000-000333333335", acct, "000333333335", false},
		{"sandbox-token-110000000-000111111113", acct, "", true},
		{"sandbox-token-110000000-000111111116", acct, "", true},
		{"sandbox-token-021000021-000123456789", acct, "", true},
		{"sandbox-token-110000000-999", acct, "", true},
		{"sandbox-token-", acct, "", true},
		{"public-sandbox-abc", acct, "", true},
		{LinkToken(acct), acct, TestAccountSucceeds, false},
		{LinkToken(acct), "0198c0de-0000-7000-8000-000000000002", "", true},
		{LinkToken(acct), "", "", true},
	}
	for _, c := range cases {
		got, problem := ExchangeToken(c.token, c.account)
		if (problem != "") != c.refused || got.Number != c.number {
			t.Errorf("%q for %q: %+v %q", c.token, c.account, got, problem)
		}
		if !c.refused && (got.Routing != TestRouting || got.AccountType != "checking") {
			t.Errorf("%q: %+v", c.token, got)
		}
	}
}
