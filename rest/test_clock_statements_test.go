package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Statement counts of an advance (docs/performance.md, "Billing:
// advancing test clocks"). An advance applies its effects in writes of up
// to 25 (billing's stepBatch), each locking the clock once and inserting
// its events once. A renewal in one is the sources asked (one statement),
// the clock moved, and the renewal itself: the subscription locked, its
// product and pending lines, the invoice inserted with its line, read
// back, numbered and issued, the card, billing agreement and block list
// checked, the charge with its ledger accounts, journal and entries, the
// charge intent the attempt is made through (its customer read for its
// events, the intent and its client secret written: 3 statements, 18
// before subscription invoices were paid through intents), the invoice
// paid, the subscription saved and read back. Around them an
// advance runs the credential's look-up, the claim (the clock locked and
// marked advancing), the write's clock lock, its last look at the sources
// (nothing more due) and its events, and the write that sets the clock at
// its target (the clock locked, the sources asked, the clock moved).
const (
	statementsPerRenewal = 24
	statementsPerAdvance = 1 + 2 + 3 + 3 // auth; the claim; the write's lock, last look and events; the finish
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
