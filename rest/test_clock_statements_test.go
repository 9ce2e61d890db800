package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Statement counts of an advance (docs/performance.md, "Billing:
// advancing test clocks"). A renewal step is the clock's lock, one
// look-up per due source (renewals, retries, resumes, overdue notices),
// the clock's move and the renewal itself: the subscription locked, its
// product and pending lines, the invoice inserted with its line, read
// back, numbered and issued, the card, billing agreement and block list
// checked, the charge with its ledger accounts, journal and entries, the
// invoice paid, the subscription saved and read back, and the events.
// Around the steps an advance runs the credential's look-up, a last step
// that finds nothing due and the write that sets the clock at its target.
const (
	statementsPerRenewal = 26
	statementsPerAdvance = 1 + 5 + 6 // auth; the empty step; the finish
)

// TestTestClockAdvanceStatementCount pins the statements an advance runs
// per renewal, so a statement added to the renewal path (or an N+1 in the
// advance loop) shows up here.
func TestTestClockAdvanceStatementCount(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	clock := f.sk.CreateTestClock(testenv.TestClock(jan31))
	customer := id(f.sk.CreateClockedCustomer(id(clock)))
	f.sk.CreateCard(customer, testenv.Visa)
	f.sk.CreateSubscription(testenv.Subscription(customer, id(f.sk.CreateProduct(testenv.RecurringProduct(2000, "monthly")))))

	// One renewal: the first period ends on 28 February.
	r := f.sk.Post(clocksPath+"/"+id(clock)+"/advance", map[string]any{"frozen_time": jan31.AddDate(0, 0, 30).Unix()})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, r.JSON()["receipt"].(map[string]any)["effects"], 1)
	require.Equal(t, statementsPerAdvance+statementsPerRenewal, r.Statements)

	// Eleven more, to the year's end: the count is linear in renewals.
	r = f.sk.Post(clocksPath+"/"+id(clock)+"/advance", map[string]any{"frozen_time": yearLater.Unix()})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Len(t, r.JSON()["receipt"].(map[string]any)["effects"], 11)
	require.Equal(t, statementsPerAdvance+11*statementsPerRenewal, r.Statements)
}
