package bank

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRoutingChecksum(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"110000000": true, "021000021": true, "011401533": true,
		"110000001": false, "12345678": false, "1100000000": false, "11000000a": false, "": false,
	} {
		require.Equal(t, want, ValidRouting(s), s)
	}
}

func TestAccountsAndTokens(t *testing.T) {
	t.Parallel()
	require.True(t, ValidAccountNumber("000123456789"))
	require.False(t, ValidAccountNumber("123"))
	require.False(t, ValidAccountNumber("123456789012345678"))
	for _, a := range TestAccounts() {
		_, ok := TestAccount(TestRouting, a)
		require.True(t, ok, a)
	}
	out, ok := TestAccount(TestRouting, "000111111113")
	require.True(t, ok)
	require.Equal(t, "account_closed", out)
	_, ok = TestAccount("021000021", "000123456789")
	require.False(t, ok)

	r, a, ok := ParseSandboxToken("sandbox-token-110000000-000123456789")
	require.True(t, ok)
	require.Equal(t, []string{TestRouting, "000123456789"}, []string{r, a})
	for _, bad := range []string{"sandbox-token-110000001-000123456789", "token-110000000-000123456789",
		"sandbox-token-110000000", "sandbox-token-110000000-12"} {
		_, _, ok := ParseSandboxToken(bad)
		require.False(t, ok, bad)
	}
}

// FuzzACH: the validators never panic; an accepted routing number is nine
// digits and an accepted token names a valid routing and account.
func FuzzACH(f *testing.F) {
	f.Add("110000000", "000123456789")
	f.Add("", "")
	f.Add("11000000\x00", "-")
	f.Fuzz(func(t *testing.T, routing, account string) {
		if ValidRouting(routing) && (len(routing) != 9 || !digits(routing)) {
			t.Fatalf("routing %q accepted", routing)
		}
		_ = ValidAccountNumber(account)
		_, _ = TestAccount(routing, account)
		if r, a, ok := ParseSandboxToken(SandboxTokenPrefix + routing + "-" + account); ok {
			if !ValidRouting(r) || !ValidAccountNumber(a) {
				t.Fatalf("token accepted %q %q", r, a)
			}
		}
	})
}
