package verification

// Phone verification outcomes (spec doc 1 §2.6).
const (
	PhonePending  = "pending"
	PhoneVerified = "verified"
	PhoneFailed   = "failed"
	PhoneExpired  = "expired"

	FailureChallengeFailed     = "challenge_failed"
	FailureLineNotEligible     = "line_not_eligible"
	FailureLineUntrusted       = "line_untrusted"
	FailureOTPNotCompleted     = "otp_not_completed"
	FailureOTPAttemptsExceeded = "otp_attempts_exceeded"
	FailureSessionOutOfOrder   = "session_out_of_order"
	FailureExternalAPIError    = "external_api_error"
)

// The sandbox OTP provider's passcodes (API-DECISIONS §6).
const (
	// CodeCorrect verifies the attempt.
	CodeCorrect = "123456"
	// CodeWrong is a wrong code (so is any code but these three).
	CodeWrong = "000000"
	// CodeExpired is a code that expired before it was entered.
	CodeExpired = "111111"
)

// OTPAttempts is how many wrong codes an attempt takes before it fails
// with otp_attempts_exceeded.
const OTPAttempts = 3

// PhoneOutcome is a phone verification's outcome short of verified: a
// failure type with its category and whether retrying can help.
type PhoneOutcome struct {
	Status      string
	FailureType string
	Category    string
	Retriable   bool
}

// lineRefusals are the numbers (E.164) the sandbox provider refuses at the
// line level: no passcode is sent and the attempt stays pending with the
// refusal (docs/sandbox.md).
var lineRefusals = map[string]PhoneOutcome{
	"+12001002001": {Status: PhonePending, FailureType: FailureLineUntrusted, Category: CategoryRetriableWithNewData, Retriable: true},
	"+12001002002": {Status: PhonePending, FailureType: FailureLineNotEligible, Category: CategoryRetriableWithNewData, Retriable: true},
	"+12001002003": {Status: PhonePending, FailureType: FailureExternalAPIError, Category: CategoryTransient, Retriable: true},
}

// LineRefusal reports whether the sandbox provider refuses the line of
// e164, and how.
func LineRefusal(e164 string) (PhoneOutcome, bool) {
	o, ok := lineRefusals[e164]
	return o, ok
}

// ExpectedCodes are the passcodes that verify an attempt on e164: none
// when its line is refused (no passcode was sent).
func ExpectedCodes(e164 string) []string {
	if _, refused := lineRefusals[e164]; refused {
		return []string{}
	}
	return []string{CodeCorrect}
}

// Challenge is what entering code does to an attempt that has already taken
// wrongBefore wrong codes: verified (ok true), or the outcome to record.
func Challenge(code string, wrongBefore int) (verified bool, o PhoneOutcome) {
	switch code {
	case CodeCorrect:
		return true, PhoneOutcome{Status: PhoneVerified}
	case CodeExpired:
		return false, Expired()
	}
	if wrongBefore+1 >= OTPAttempts {
		return false, PhoneOutcome{Status: PhoneFailed, FailureType: FailureOTPAttemptsExceeded, Category: CategoryTerminal}
	}
	return false, PhoneOutcome{Status: PhonePending, FailureType: FailureChallengeFailed,
		Category: CategoryRetriableWithNewData, Retriable: true}
}

// Expired is the outcome of an attempt whose passcode expired unconfirmed:
// a new attempt can succeed.
func Expired() PhoneOutcome {
	return PhoneOutcome{Status: PhoneExpired, FailureType: FailureOTPNotCompleted, Category: CategoryRetriableWithNewData, Retriable: true}
}

// Superseded is the outcome of an open attempt replaced by a newer one.
func Superseded() PhoneOutcome {
	return PhoneOutcome{Status: PhoneExpired, FailureType: FailureSessionOutOfOrder, Category: CategoryRetriableWithNewData, Retriable: true}
}
