package rest_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Paused subscriptions renew together (a run of renewals that bill
// nothing, a few statements for the whole run) when an advance may apply
// more than one effect in a write; with a budget of one effect a write,
// each renews alone, as every other renewal does. Both must leave the
// same rows and the same events, in the same order and at the same
// instants.

// renewalRunOutcome is what an advance left in a fixture, with every id
// replaced by the order in which it first appears (the two fixtures'
// objects have ids of their own): the receipt's effects, the
// subscriptions' rows and the events.
type renewalRunOutcome struct {
	Effects       []string
	Subscriptions []string
	Events        []string
}

// uuidPattern matches an object id as rows and events carry it.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// drawnPattern matches what the sandbox card network draws at random for
// a charge: its authorization code and acquirer reference number.
var drawnPattern = regexp.MustCompile(`"(authorization_code|acquirer_reference_number)": "[0-9]+"`)

// advanceWithPausedRuns builds the same clock in a fresh fixture whose
// advance applies at most budget effects a write (a request or a slice),
// advances it three and a half days and answers what that left and the
// statements the advance's request ran.
func advanceWithPausedRuns(t *testing.T, budget int) (renewalRunOutcome, int) {
	f := setup(t, testenv.WithAdvanceBudget(budget))
	s := newClockedSubscriber(t, f, jan31, "daily", "")
	daily := id(f.sk.CreateProduct(testenv.RecurringProduct(1500, "daily")))
	// 40 paused daily subscriptions, anchored an hour and a second apart
	// (no two renewals at one instant, whose order would be their random
	// ids'): over a few days their renewals come in runs that a renewal of
	// the run itself cuts (the first renewed is due again a day later,
	// before the last of a run of 25 hours), and the customer's active
	// subscription, anchored at jan31, renews (and bills) between them.
	f.seedPausedSubscriptions(t, s, 40, daily, time.Hour+time.Second)

	target := jan31.AddDate(0, 0, 3).Add(12 * time.Hour)
	effects, statements := f.advanceToTheEndCounting(t, s.clock, target)

	names := map[string]string{}
	anonymous := func(s string) string {
		s = drawnPattern.ReplaceAllString(s, `"$1": "drawn"`)
		return uuidPattern.ReplaceAllStringFunc(s, func(id string) string {
			if _, ok := names[id]; !ok {
				names[id] = "#" + strconv.Itoa(len(names))
			}
			return names[id]
		})
	}
	var out renewalRunOutcome
	for _, e := range effects {
		raw, err := json.Marshal(e)
		require.NoError(t, err)
		out.Effects = append(out.Effects, anonymous(string(raw)))
	}
	ctx := context.Background()
	var rows []string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT (to_jsonb(s) - 'merchant_id')::text FROM subscriptions AS s
		WHERE s.merchant_id = ? ORDER BY s.anchor, s.created, s.id`, f.env.Merchant.ID).Scan(ctx, &rows))
	for _, r := range rows {
		out.Subscriptions = append(out.Subscriptions, anonymous(r))
	}
	var evs []string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT jsonb_build_object('type', e.type, 'object', e.object_id,
		'created', e.created, 'data', e.data)::text FROM events AS e WHERE e.merchant_id = ? ORDER BY e.created, e.id`,
		f.env.Merchant.ID).Scan(ctx, &evs))
	for _, e := range evs {
		out.Events = append(out.Events, anonymous(e))
	}
	return out, statements
}

func TestPausedRenewalsRenewedTogetherWriteWhatOneByOneWrites(t *testing.T) {
	t.Parallel()
	oneByOne, _ := advanceWithPausedRuns(t, 1)
	together, statements := advanceWithPausedRuns(t, 500)

	// In the three and a half days the active subscription renews three
	// times; the paused ones, anchored 1 to 40 hours (and as many
	// seconds) on, once (all 40), twice (those anchored before hour 36)
	// and three times (before hour 12).
	require.Len(t, together.Effects, 3+40+35+11)
	require.Equal(t, oneByOne.Effects, together.Effects, "the same effects, in the same order")
	require.Equal(t, oneByOne.Subscriptions, together.Subscriptions, "the same rows")
	require.Equal(t, oneByOne.Events, together.Events, "the same events, in the same order, at the same instants")

	var renewed, updated int
	for _, e := range together.Events {
		var ev struct{ Type string }
		require.NoError(t, json.Unmarshal([]byte(e), &ev))
		switch ev.Type {
		case "subscription.renewal.completed":
			renewed++
		case "customer.subscription.updated":
			updated++
		}
	}
	require.Equal(t, len(together.Effects), renewed)
	require.GreaterOrEqual(t, updated, len(together.Effects))

	// The 500-effect budget took the whole advance in its request: the
	// three billed renewals at their count, the 86 paused ones in runs of
	// a few statements each (one by one, each costs seven).
	require.Less(t, statements, statementsPerAdvance+3*statementsPerRenewal+86, "paused renewals renewed together")
}
