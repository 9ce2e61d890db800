package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Every ACH test account of API-DECISIONS §6 goes through a charge, priced
// by the plan's ACH item and journaled on the ACH clearing account.
func TestEveryTestBankAccountThroughACharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing() // ACH at 0.8 %
	outcomes := map[string]string{"000123456789": "", "000111111113": "account_closed", "000111111116": "no_account",
		"000222222227": "insufficient_funds", "000333333335": "debit_not_authorized"}
	for number, want := range outcomes {
		a := f.sk.CreateAccount(testenv.Individual())
		r := f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "account": id(a), "routing_number": "110000000",
			"account_number": number, "account_type": "checking"})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		tr := createTransfer(t, f.sk, map[string]any{"amount": 10000, "account_id": id(a),
			"source_payment_method_id": id(r.JSON()), "confirm": true})
		if want == "" {
			require.Equal(t, "succeeded", tr["status"], number)
			require.Equal(t, int64(80), num(tr["total_fees"]))
			require.Equal(t, int64(9920), num(tr["net_amount"]))
			require.Equal(t, "charge.ach", f.sk.Get("/v2/transfers/" + id(tr)).JSON()["type"])
			continue
		}
		require.Equal(t, "failed", tr["status"], number)
		require.Equal(t, want, tr["failure_code"], number)
		require.Equal(t, "bank_declined", tr["failure_reason"], number)
		require.NotEmpty(t, tr["failure_message"], number)
	}
	books := requireBooksHold(t, f)
	require.Equal(t, int64(10000), books["ach_clearing"])
	require.Equal(t, int64(0), books["card_clearing"])
	require.Equal(t, int64(-9920), books["merchant"])
}
