package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A resume racing an advance whose paused renewals run together. The run
// locks the paused subscriptions it renews and keeps only those still
// paused once it holds them, so the subscription resumed is renewed
// unbilled in a run only before the resume commits, and after it one by
// one, billed: every period rolls exactly once, the renewals announced
// paused all come before those announced active, and each active one
// billed its period once. Whichever request wins, neither fails.
func TestResumeRacingARunOfPausedRenewals(t *testing.T) {
	t.Parallel()
	f := setup(t, testenv.WithAdvanceBudget(500))
	s := newClockedSubscriber(t, f, jan31, "daily", "")
	daily := id(f.sk.CreateProduct(testenv.RecurringProduct(1500, "daily")))
	// 20 paused daily subscriptions an hour and a second apart: over three
	// and a half days each renews three times, in runs.
	f.seedPausedSubscriptions(t, s, 20, daily, time.Hour+time.Second)
	ctx := context.Background()
	var resumed string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT id::text FROM subscriptions WHERE merchant_id = ? AND status = 'paused'
		ORDER BY anchor OFFSET 9 LIMIT 1`, f.env.Merchant.ID).Scan(ctx, &resumed))

	target := jan31.AddDate(0, 0, 3).Add(12 * time.Hour)
	var wg sync.WaitGroup
	var advance, resume *testenv.Response
	wg.Add(2)
	go func() {
		defer wg.Done()
		advance = f.sk.Post(clocksPath+"/"+s.clock+"/advance", map[string]any{"frozen_time": target.Unix()})
	}()
	go func() {
		defer wg.Done()
		resume = f.sk.Post("/v1/subscriptions/"+resumed+"/resume", nil)
	}()
	wg.Wait()
	require.Equal(t, http.StatusOK, advance.Status, string(advance.Body))
	require.Equal(t, http.StatusOK, resume.Status, string(resume.Body))

	got := f.sk.Get("/v1/subscriptions/" + resumed).JSON()
	require.Equal(t, "active", got["status"])
	require.Greater(t, num(got["current_period_end"]), target.Unix(), "no renewal left behind")

	var statuses []string
	require.NoError(t, f.env.DB.Bun.NewRaw(`SELECT COALESCE(data->'object'->>'status', data->>'status') FROM events
		WHERE merchant_id = ? AND type = 'subscription.renewal.completed' AND object_id = ?::uuid ORDER BY created, id`,
		f.env.Merchant.ID, resumed).Scan(ctx, &statuses))
	require.Len(t, statuses, 3, "each of the three periods rolled once")
	active := 0
	for i, st := range statuses {
		if st == "active" {
			active++
			continue
		}
		require.Equal(t, "paused", st)
		require.Zero(t, active, "renewal %d announced paused after an active one: %v", i, statuses)
	}
	cycles := 0
	for _, inv := range subscriptionInvoices(t, f.sk, resumed) {
		if inv["billing_reason"] == "subscription_cycle" {
			cycles++
		}
	}
	require.Equal(t, active, cycles, "each renewal after the resume billed its period once, none before it")
}
