package rest_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestSubscriptionPhases(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	base := subscriptionPhasesOf(sub)

	list := f.sk.Get(base).JSON()
	require.Equal(t, map[string]any{"subscription_id": sub, "page": float64(1), "url": base, "has_more": false,
		"prev": nil, "next": nil}, list["meta"])
	require.Equal(t, []any{}, list["phases"])
	require.Equal(t, []any{}, list["data"], "the SDKs read the phases from data")

	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 900, "period_count": 2, "name": "Intro"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	intro := r.JSON()
	require.Equal(t, subscriptionPhaseKeys, keys(intro))
	require.Equal(t, "subscription_phase", intro["object"])
	require.Equal(t, "Subscription", intro["phaseable_type"])
	require.Equal(t, sub, intro["phaseable_id"])
	require.Equal(t, sub, intro["subscription_id"])
	require.Equal(t, float64(900), intro["amount"])
	require.Nil(t, intro["discount_percentage"])
	require.Nil(t, intro["started_at"])
	require.Equal(t, "usd", intro["currency"], "the subscription's currency")
	require.Equal(t, false, intro["livemode"])
	require.Equal(t, float64(f.env.Clock.Now().Unix()), intro["created"])

	// discount_percentage is a number or a decimal string, answered as a
	// decimal string.
	r = f.sk.Post(base, map[string]any{"ordinal": 3, "pricing_type": "relative", "discount_percentage": 12.5})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	rest := r.JSON()
	require.Equal(t, "12.50", rest["discount_percentage"])
	require.Nil(t, rest["period_count"], "no period_count: indefinite")

	// Nothing after the indefinite phase; ordinals are unique; pricing
	// rules and required members, every problem at once.
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 4, "pricing_type": "static", "amount_cents": 1}), "ordinal")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 1, "period_count": 1}), "ordinal")
	requireValidation(t, f.sk.Post(base, map[string]any{"pricing_type": "relative", "amount_cents": 1, "period_count": 0}),
		"ordinal", "amount_cents", "discount_percentage", "period_count")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "relative", "discount_percentage": "100.5"}),
		"discount_percentage")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "weekly"}), "pricing_type")

	r = f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "relative", "discount_percentage": "50", "period_count": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	half := r.JSON()
	require.Equal(t, []string{id(intro), id(half), id(rest)}, ids(mapsOf(f.sk.Get(base).JSON()["phases"])))

	// PATCH: the spec's members; period_count null makes a phase
	// indefinite, which the ordering rules refuse for one that others
	// follow.
	r = f.sk.Patch(base+"/"+id(intro), map[string]any{"name": "Welcome", "amount_cents": 700, "period_count": 3})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "Welcome", r.JSON()["name"])
	require.Equal(t, float64(700), r.JSON()["amount"])
	require.Equal(t, float64(3), r.JSON()["period_count"])
	requireValidation(t, f.sk.Patch(base+"/"+id(intro), map[string]any{"period_count": nil}), "period_count")
	requireValidation(t, f.sk.Patch(base+"/"+id(intro), map[string]any{"discount_percentage": "5"}), "discount_percentage")

	// The SDK's ordinal and pricing_type: a new pricing type needs its
	// member and drops the old one's; a taken ordinal is refused on ordinal.
	requireValidation(t, f.sk.Patch(base+"/"+id(half), map[string]any{"pricing_type": "static"}), "amount_cents")
	r = f.sk.Patch(base+"/"+id(half), map[string]any{"pricing_type": "static", "amount_cents": 1200})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(1200), r.JSON()["amount"])
	require.Nil(t, r.JSON()["discount_percentage"])
	requireValidation(t, f.sk.Patch(base+"/"+id(half), map[string]any{"ordinal": 1}), "ordinal")
	requireValidation(t, f.sk.Patch(base+"/"+id(half), map[string]any{"ordinal": 5}), "ordinal")
	r = f.sk.Patch(base+"/"+id(half), map[string]any{"ordinal": 0})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(0), r.JSON()["ordinal"])
	require.Equal(t, []string{id(half), id(intro), id(rest)}, ids(mapsOf(f.sk.Get(base).JSON()["phases"])))
	r = f.sk.Patch(base+"/"+id(half), map[string]any{"ordinal": 2})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	// GET one; another subscription's phase is 404 on id.
	require.Equal(t, "Welcome", f.sk.Get(base + "/" + id(intro)).JSON()["name"])
	other := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	requireError(t, f.sk.Get(subscriptionPhasesOf(other)+"/"+id(intro)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Patch(subscriptionPhasesOf(other)+"/"+id(intro), map[string]any{"name": "x"}), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Delete(subscriptionPhasesOf(other)+"/"+id(intro)), http.StatusNotFound, "resource_missing", "id")

	// DELETE answers 204 (spec doc 2 §4.4), then the phase is gone.
	r = f.sk.Delete(base + "/" + id(half))
	require.Equal(t, http.StatusNoContent, r.Status, string(r.Body))
	require.Empty(t, r.Body)
	requireError(t, f.sk.Get(base+"/"+id(half)), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, []string{id(intro), id(rest)}, ids(mapsOf(f.sk.Get(base).JSON()["phases"])))

	// No event is declared for phases of subscriptions: none is sent.
	for _, e := range listEvents(t, f.sk, "") {
		require.False(t, strings.Contains(e.Type, "phase"), e.Type)
	}
}

func TestSubscriptionPhasesBulkUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	base := subscriptionPhasesOf(sub)
	a := f.sk.CreateSubscriptionPhase(sub, testenv.StaticPhase(1, 0, 1))
	b := f.sk.CreateSubscriptionPhase(sub, testenv.RelativePhase(2, "20", 2))
	c := f.sk.CreateSubscriptionPhase(sub, testenv.StaticPhase(3, 2500, 0))

	// Two phases trade places and one is renamed, in one request.
	r := f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(a), "ordinal": 2}, map[string]any{"id": id(b), "ordinal": 1, "name": "Discount"}}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	body := r.JSON()
	require.Equal(t, map[string]any{"subscription_id": sub, "updated_count": float64(2), "page": float64(1),
		"url": base + "/bulk_update", "has_more": false, "prev": nil, "next": nil}, body["meta"])
	require.Equal(t, body["phases"], body["data"])
	phases := mapsOf(body["phases"])
	require.Equal(t, []string{id(b), id(a), id(c)}, ids(phases), "all the phases, in their new order")
	require.Equal(t, "Discount", phases[0]["name"])
	require.Equal(t, subscriptionPhaseKeys, keys(phases[0]))

	// An entry that changes nothing is not counted.
	r = f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{map[string]any{"id": id(c), "amount_cents": 2500}}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(0), r.JSON()["meta"].(map[string]any)["updated_count"])

	// Every problem of every entry at once, and nothing applied.
	e := requireValidation(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(a), "name": "ok", "period_count": 0},
		map[string]any{"id": "nope"},
		map[string]any{"name": "no id"},
		map[string]any{"id": id(b), "discount_percentage": "101", "metadata": map[string]any{}},
		map[string]any{"id": id(a)},
	}}), "phases.0.period_count", "phases.1.id", "phases.2.id", "phases.3.discount_percentage", "phases.3.metadata", "phases.4.id")
	requireProblem(t, e, "phases.4.id", "is listed twice")
	requireValidation(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(b), "period_count": nil}}}), "phases")
	requireValidation(t, f.sk.Patch(base+"/bulk_update", map[string]any{}), "phases")
	after := mapsOf(f.sk.Get(base).JSON()["phases"])
	require.Equal(t, phases, after, "a refused bulk update changes nothing")
}

func TestStartedSubscriptionPhaseKeepsItsOrdinalAndPricing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	base := subscriptionPhasesOf(sub)
	first := f.sk.CreateSubscriptionPhase(sub, testenv.StaticPhase(1, 500, 1))
	next := f.sk.CreateSubscriptionPhase(sub, testenv.StaticPhase(2, 900, 0))
	started := f.env.Clock.Now().Add(-time.Hour)
	f.exec(t, "UPDATE subscription_phases SET started_at = ? WHERE id = ?", started, id(first))

	got := f.sk.Get(base + "/" + id(first)).JSON()
	require.Equal(t, float64(started.Unix()), got["started_at"])

	requireError(t, f.sk.Delete(base+"/"+id(first)), http.StatusUnprocessableEntity, "invalid_state", "")
	for _, change := range []map[string]any{
		{"ordinal": 0}, {"amount_cents": 600}, {"pricing_type": "relative", "discount_percentage": 10},
	} {
		requireError(t, f.sk.Patch(base+"/"+id(first), change), http.StatusUnprocessableEntity, "invalid_state", "")
	}
	requireError(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(next), "name": "fine"}, map[string]any{"id": id(first), "amount_cents": 1}}}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	require.Nil(t, f.sk.Get(base + "/" + id(next)).JSON()["name"], "all or nothing")

	// Its name and length may change, and the same values are no change.
	r := f.sk.Patch(base+"/"+id(first), map[string]any{"name": "Trial", "period_count": 2, "amount_cents": 500, "ordinal": 1})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(2), r.JSON()["period_count"])
	require.Equal(t, float64(started.Unix()), r.JSON()["started_at"])
	// A phase that has not started is deleted as usual.
	require.Equal(t, http.StatusNoContent, f.sk.Delete(base+"/"+id(next)).Status)
}

// The SDK's members: duration_type agrees with period_count, currency,
// interval and interval_count must be the subscription's, amount is
// amount_cents under its name.
func TestSubscriptionPhaseTakesTheSDKsMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	base := subscriptionPhasesOf(sub)

	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "duration_type": "finite",
		"period_count": 2, "amount": 700, "currency": "USD", "interval": "monthly", "interval_count": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	p := r.JSON()
	require.Equal(t, float64(700), p["amount"])
	require.Equal(t, "usd", p["currency"])

	e := requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "static", "amount_cents": 1,
		"duration_type": "infinite", "period_count": 3, "currency": "eur", "interval": "weekly", "interval_count": 2,
		"metadata": map[string]any{}}), "duration_type", "currency", "interval", "interval_count", "metadata")
	requireProblem(t, e, "duration_type", "is infinite but period_count is sent (an infinite phase has no period_count)")
	requireProblem(t, e, "currency", "must be the subscription's currency (usd)")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "static", "amount_cents": 1,
		"duration_type": "finite"}), "duration_type")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "static", "amount_cents": 1,
		"duration_type": "forever"}), "duration_type")

	r = f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "relative", "discount_percentage": 10, "duration_type": "infinite"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	last := r.JSON()

	// On update, duration_type is checked against the phase as it will be.
	requireValidation(t, f.sk.Patch(base+"/"+id(last), map[string]any{"duration_type": "finite"}), "duration_type")
	requireValidation(t, f.sk.Patch(base+"/"+id(p), map[string]any{"duration_type": "finite", "period_count": nil}), "duration_type")
	requireValidation(t, f.sk.Patch(base+"/"+id(p), map[string]any{"amount": 1, "amount_cents": 2, "interval": "yearly"}), "amount", "interval")
	r = f.sk.Patch(base+"/"+id(last), map[string]any{"duration_type": "finite", "period_count": 4})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(4), r.JSON()["period_count"])
	r = f.sk.Patch(base+"/"+id(last), map[string]any{"duration_type": "infinite"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Nil(t, r.JSON()["period_count"])
	r = f.sk.Patch(base+"/"+id(p), map[string]any{"amount": 800, "interval": "monthly", "interval_count": 1, "duration_type": "finite"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(800), r.JSON()["amount"])
}

// A subscription on a test clock stamps its phases at the clock's time.
func TestSubscriptionPhasesOfAClockedSubscriptionTakeTheClocksTime(t *testing.T) {
	t.Parallel()
	f := setup(t)
	frozen := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, insertTestClock(t, f, f.env.Merchant, frozen))
	r := f.sk.Post(subscriptionPhasesOf(sub), map[string]any{"ordinal": 0, "pricing_type": "static", "amount_cents": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	p := r.JSON()
	require.Equal(t, float64(frozen.Unix()), p["created"])
	require.Equal(t, float64(frozen.Unix()), p["updated"])
}

func TestSubscriptionPhasesHostile(t *testing.T) {
	t.Parallel()
	f := setup(t)
	mine := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	m, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	theirClient := f.env.Client(k.Sandbox.Secret)
	theirs := insertSubscriptionRow(t, f, theirClient, m, uuid.Nil)
	theirPhase := theirClient.CreateSubscriptionPhase(theirs, testenv.StaticPhase(1, 1, 0))
	valid := map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 1}

	// Another merchant's subscription, another mode's, a malformed id:
	// 404 on subscription_id for every path.
	for _, sub := range []string{theirs, "not-a-uuid", uuid.NewString()} {
		base := subscriptionPhasesOf(sub)
		requireError(t, f.sk.Get(base), http.StatusNotFound, "resource_missing", "subscription_id")
		requireError(t, f.sk.Post(base, valid), http.StatusNotFound, "resource_missing", "subscription_id")
		requireError(t, f.sk.Get(base+"/"+id(theirPhase)), http.StatusNotFound, "resource_missing", "subscription_id")
		requireError(t, f.sk.Patch(base+"/"+id(theirPhase), map[string]any{"name": "x"}), http.StatusNotFound, "resource_missing", "subscription_id")
		requireError(t, f.sk.Delete(base+"/"+id(theirPhase)), http.StatusNotFound, "resource_missing", "subscription_id")
		requireError(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{}}), http.StatusNotFound, "resource_missing", "subscription_id")
	}
	requireError(t, f.live.Get(subscriptionPhasesOf(mine)), http.StatusNotFound, "resource_missing", "subscription_id")
	require.Len(t, mapsOf(theirClient.Get(subscriptionPhasesOf(theirs)).JSON()["phases"]), 1, "theirs untouched")

	// The publishable key may neither read nor write phases.
	base := subscriptionPhasesOf(mine)
	requireError(t, f.pk.Get(base), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post(base, valid), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Patch(base+"/bulk_update", map[string]any{"phases": []any{}}), http.StatusForbidden, "forbidden", "")

	// Huge bodies: past 1 MiB unread, a huge name refused without echo,
	// a bulk update past its 100 entries refused before any lock.
	huge := strings.Repeat("x", 2<<20)
	requireError(t, f.sk.Post(base, map[string]any{"name": huge}), http.StatusBadRequest, "invalid_json", "")
	r := f.sk.Post(base, merge(valid, map[string]any{"name": huge[:100000]}))
	requireValidation(t, r, "name")
	require.NotContains(t, string(r.Body), huge[:50])
	entries := make([]any, 10000)
	for i := range entries {
		entries[i] = map[string]any{"id": "x"}
	}
	r = f.sk.Patch(base+"/bulk_update", map[string]any{"phases": entries})
	e := requireValidation(t, r, "phases")
	requireProblem(t, e, "phases", "lists too many phases: at most 100 per request")
	require.Equal(t, 1, r.Statements, "refused before the transaction: the credential only")
	requireError(t, f.sk.Post(base, map[string]any{"ordinal": "one"}), http.StatusBadRequest, "parameter_invalid", "ordinal")
	require.Empty(t, mapsOf(f.sk.Get(base).JSON()["phases"]))
}

func TestConcurrentSubscriptionPhasesTakeDistinctOrdinals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	base := subscriptionPhasesOf(insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil))
	const n = 2
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 100, "period_count": 1}).Status
		}()
	}
	wg.Wait()
	require.ElementsMatch(t, []int{http.StatusCreated, http.StatusUnprocessableEntity}, statuses)
	require.Len(t, mapsOf(f.sk.Get(base).JSON()["phases"]), 1)
}

func TestSubscriptionPhasesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	base := subscriptionPhasesOf(sub)
	// credential, subscription lock, its phases, insert
	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 100, "period_count": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 4, r.Statements, "create")
	for i := 2; i <= 5; i++ {
		f.sk.CreateSubscriptionPhase(sub, testenv.StaticPhase(i, 100, 1))
	}
	// credential, subscription, its phases
	r = f.sk.Get(base)
	require.Len(t, mapsOf(r.JSON()["phases"]), 5)
	require.Equal(t, 3, r.Statements, "list")
}
