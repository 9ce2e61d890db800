package verification

import "testing"

func TestChallenge(t *testing.T) {
	cases := []struct {
		code     string
		wrong    int
		verified bool
		want     PhoneOutcome
	}{
		{"123456", 0, true, PhoneOutcome{Status: PhoneVerified}},
		{"123456", 2, true, PhoneOutcome{Status: PhoneVerified}},
		{"111111", 0, false, PhoneOutcome{PhoneExpired, FailureOTPNotCompleted, CategoryRetriableWithNewData, true}},
		{"000000", 0, false, PhoneOutcome{PhonePending, FailureChallengeFailed, CategoryRetriableWithNewData, true}},
		{"999999", 1, false, PhoneOutcome{PhonePending, FailureChallengeFailed, CategoryRetriableWithNewData, true}},
		{"000000", 2, false, PhoneOutcome{PhoneFailed, FailureOTPAttemptsExceeded, CategoryTerminal, false}},
		{"", 5, false, PhoneOutcome{PhoneFailed, FailureOTPAttemptsExceeded, CategoryTerminal, false}},
	}
	for _, c := range cases {
		v, o := Challenge(c.code, c.wrong)
		if v != c.verified || o != c.want {
			t.Errorf("Challenge(%q, %d) = %v %+v, want %v %+v", c.code, c.wrong, v, o, c.verified, c.want)
		}
	}
}

func TestLineRefusals(t *testing.T) {
	for phone, want := range map[string]string{
		"+12001002001": FailureLineUntrusted, "+12001002002": FailureLineNotEligible, "+12001002003": FailureExternalAPIError,
	} {
		o, ok := LineRefusal(phone)
		if !ok || o.FailureType != want || o.Status != PhonePending || !o.Retriable {
			t.Errorf("%s: %+v %v", phone, o, ok)
		}
		if len(ExpectedCodes(phone)) != 0 {
			t.Errorf("%s: a refused line gets no code", phone)
		}
	}
	if _, ok := LineRefusal("+12001001695"); ok {
		t.Error("a persona number is not refused")
	}
	if got := ExpectedCodes("+12001001695"); len(got) != 1 || got[0] != CodeCorrect {
		t.Errorf("expected codes %v", got)
	}
}

func TestDocumentOutcome(t *testing.T) {
	for phone, want := range map[string]string{
		"+12001003001": InquiryDeclined, "+12001003002": InquiryFailed, "+12001003003": InquiryNeedsReview,
		"+12001001695": InquiryApproved, "": InquiryApproved,
	} {
		if got := DocumentOutcome(phone); got != want {
			t.Errorf("%q: %s, want %s", phone, got, want)
		}
	}
	if !InquiryOpen(InquiryCreated) || InquiryOpen(InquiryApproved) || InquiryOpen(InquiryNeedsReview) {
		t.Error("only a created inquiry is open")
	}
}
