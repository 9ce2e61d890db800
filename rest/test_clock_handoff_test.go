package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/billing/testclocks"
)

// An advance handed off just as its merchant's continuation job ends is
// never left to the wall clock's run (which only notices a clock stalled
// for a minute of the injected clock, which these tests never move). The
// job is paused by its test hook at each point of its end where a
// hand-off could interleave, the hand-off is played there, and the job is
// let go.

// handOffRace is a clock whose advance the continuation finishes, paused
// at stage of its end, and a second clock of the same merchant to hand
// off there.
type handOffRace struct {
	f              *fixture
	first, second  clockedSubscriber
	paused, resume chan struct{}
}

func newHandOffRace(t *testing.T, stage testclocks.FinishStage) *handOffRace {
	t.Helper()
	f := setup(t, testenv.WithAdvanceBudget(2))
	h := &handOffRace{f: f, first: newClockedSubscriber(t, f, jan31, "daily", ""),
		second: newClockedSubscriber(t, f, jan31, "daily", ""), paused: make(chan struct{}), resume: make(chan struct{})}
	first := true
	f.env.Services.Billing.TestClocks.FinishHook = func(s testclocks.FinishStage) {
		if s == stage && first { // the worker's goroutine alone calls it
			first = false
			close(h.paused)
			<-h.resume
		}
	}
	r := f.sk.Post(clocksPath+"/"+h.first.clock+"/advance", map[string]any{"frozen_time": jan31.AddDate(0, 0, 5).Unix()})
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	f.env.StartJobs()
	<-h.paused // the first clock's advance is done; the job is ending
	require.Equal(t, "ready", f.sk.Get(clocksPath + "/" + h.first.clock).JSON()["status"])
	return h
}

// advanceSecond advances the second clock past the request's budget: 202,
// its advance handed off.
func (h *handOffRace) advanceSecond() *testenv.Response {
	return h.f.sk.Post(clocksPath+"/"+h.second.clock+"/advance", map[string]any{"frozen_time": jan31.AddDate(0, 0, 5).Unix()})
}

// requireSecondFinishes waits, through the job engine alone, until the
// second clock is ready with every day billed.
func (h *handOffRace) requireSecondFinishes(t *testing.T) {
	t.Helper()
	h.f.env.AwaitJobs(func() bool {
		return h.f.sk.Get(clocksPath + "/" + h.second.clock).JSON()["status"] == "ready"
	})
	require.Len(t, subscriptionInvoices(t, h.f.sk, h.second.sub), 6, "the first invoice and five days")
}

// The hand-off commits after the job found no clock advancing and before
// it ends: its enqueue is absorbed by the job still running, which then
// looks again under the hand-off lock, finds the clock, and goes on.
func TestAnAdvanceHandedOffAsTheJobEndsIsContinued(t *testing.T) {
	t.Parallel()
	h := newHandOffRace(t, testclocks.FinishFoundNone)
	r := h.advanceSecond()
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	finished, cancel := h.f.env.Jobs.Finished()
	defer cancel()
	close(h.resume)
	for ev := range finished {
		if ev.Job.Kind == (testclocks.AdvanceClocksArgs{}).Kind() {
			break // the paused run has ended
		}
	}
	var waiting int
	require.NoError(t, h.f.env.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM river_job
		WHERE kind = $1 AND finalized_at IS NULL`, testclocks.AdvanceClocksArgs{}.Kind()).Scan(&waiting))
	require.Equal(t, 1, waiting, "the job goes on for the clock handed off")
	h.requireSecondFinishes(t)
}

// The hand-off comes while the ending job holds the hand-off lock: it
// waits for the job to end, then enqueues a new job, which finishes it.
func TestAnAdvanceHandedOffWhileTheJobEndsWaitsAndIsContinued(t *testing.T) {
	t.Parallel()
	h := newHandOffRace(t, testclocks.FinishLocked)
	second := start(h.advanceSecond)
	h.f.awaitLockWaits(t, 1) // the hand-off queued behind the job's lock
	close(h.resume)
	r := second.answer(t)
	require.Equal(t, http.StatusAccepted, r.Status, string(r.Body))
	h.requireSecondFinishes(t)
}
