package verification

import "testing"

func TestPersonas(t *testing.T) {
	cases := []struct {
		phone     string
		status    string
		failure   string
		category  string
		retriable bool
		review    bool
		findings  bool
		prefill   string
		nonUS     bool
	}{
		{"+12001001695", RunApproved, "", "", false, false, false, PrefillAvailable, false},
		{"+17742345678", RunFailed, FailureIdentityMismatch, CategoryRetriableWithNewData, true, false, false, PrefillFailed, false},
		{"+12001001696", RunPending, FailureReviewPending, CategoryReview, false, true, false, PrefillAvailable, false},
		{"+12001001697", RunApproved, "", "", false, false, false, PrefillPending, false},
		{"+12001001698", RunApproved, "", "", false, false, false, PrefillFailed, false},
		{"+12267738525", RunApproved, "", "", false, false, false, PrefillFailed, true},
		{"+12001001699", RunApproved, "", "", false, false, true, PrefillAvailable, false},
		{"+12001001690", RunErrored, FailureProviderError, CategoryTransient, true, false, false, PrefillAvailable, false},
		{"+12001001691", RunFailed, FailureVerificationRejected, CategoryTerminal, false, false, false, PrefillFailed, false},
		{"+12001001692", RunErrored, FailureSignalsUnavailable, CategoryTransient, true, false, false, PrefillAvailable, false},
		{"+14155550100", RunApproved, "", "", false, false, false, PrefillAvailable, false},
		{"", RunApproved, "", "", false, false, false, PrefillAvailable, false},
	}
	for _, c := range cases {
		p := PersonaFor(c.phone)
		v := p.Run
		if v.Status != c.status || v.FailureType != c.failure || v.Category != c.category || v.Retriable != c.retriable ||
			v.Review != c.review || v.CreatorShieldFindings != c.findings || p.Prefill != c.prefill || p.NonUS != c.nonUS {
			t.Errorf("%q: got %+v", c.phone, p)
		}
	}
}
