package dispute

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTransitions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from string
		a    Action
		to   string
		ok   bool
	}{
		{NeedsResponse, SaveEvidence, NeedsResponse, true},
		{NeedsResponse, Submit, UnderReview, true},
		{NeedsResponse, Win, "", false},
		{UnderReview, Win, Won, true},
		{UnderReview, Lose, Lost, true},
		{UnderReview, SaveEvidence, "", false},
		{UnderReview, Submit, "", false},
		{WarningNeedsResponse, Submit, WarningUnderReview, true},
		{WarningUnderReview, Win, WarningClosed, true},
		{Won, SaveEvidence, "", false},
		{Lost, Submit, "", false},
		{Received, Submit, "", false},
	} {
		to, ok := Next(tc.from, tc.a)
		require.Equal(t, tc.ok, ok, "%s %s", tc.from, tc.a)
		require.Equal(t, tc.to, to, "%s %s", tc.from, tc.a)
	}
	for _, s := range []string{Won, Lost, WarningClosed} {
		require.True(t, Closed(s), s)
	}
	for _, s := range []string{Received, NeedsResponse, UnderReview, WarningNeedsResponse, WarningUnderReview} {
		require.False(t, Closed(s), s)
	}
}

func TestEveryStatusHasADisplayStatus(t *testing.T) {
	t.Parallel()
	for s := range displayStatuses {
		require.NotEqual(t, s, DisplayStatus(s))
	}
	require.Len(t, displayStatuses, 8)
	require.Equal(t, "Needs response", DisplayStatus(NeedsResponse))
	require.Equal(t, "other", DisplayStatus("other"))
}

func TestReasons(t *testing.T) {
	t.Parallel()
	require.Len(t, reasons, 14)
	for code, r := range reasons {
		require.Equal(t, code, r.Code)
		require.NotEmpty(t, r.Description)
		require.Contains(t, []string{"fraud", "consumer_dispute", "processing_error", "general"}, r.Category)
	}
	require.True(t, KnownReason(DefaultReason))
	require.False(t, KnownReason("nope"))
	require.Contains(t, ReasonList(), "bank_cannot_process, check_returned")
}

func TestDecide(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	require.Equal(t, Win, Decide(s(WinningEvidence)))
	require.Equal(t, Win, Decide(s(" winning_evidence\n")))
	require.Equal(t, Lose, Decide(s(LosingEvidence)))
	require.Equal(t, Lose, Decide(s("we shipped it")))
	require.Equal(t, Lose, Decide(nil))
}
