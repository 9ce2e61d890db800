package op

import (
	"reflect"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Settled is the input check's answer when it cannot depend on what only
// the transaction knows: given the check's answer under each state the
// transaction may find (the extremes of each thing the check reads from a
// stored row or from the write's time), it returns their validation
// problems when all of them report the same ones, and nil otherwise. A
// Spec.Check built on it refuses, before any transaction, exactly the
// requests the write's own check, run inside, would refuse with the same
// problems; a request whose answer depends on the state goes in, and the
// write checks it there, every problem still reported at once.
//
// The extremes must bound the state: each problem the check derives from
// the state must switch at most once between them (a date against the
// time, a size against what is stored), so that answers agreeing at the
// extremes agree at every state between.
func Settled(answers ...error) error {
	if len(answers) == 0 || answers[0] == nil {
		return nil
	}
	first := apierr.As(answers[0])
	if first == nil || first.Code != apierr.CodeValidation || first.Fields == nil {
		return nil
	}
	for _, answer := range answers[1:] {
		e := apierr.As(answer)
		if e == nil || e.Code != apierr.CodeValidation || !reflect.DeepEqual(e.Fields, first.Fields) {
			return nil
		}
	}
	return answers[0]
}

// earliest and latest bound every time a write may run at, a test
// clock's frozen time included.
var (
	earliest = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)
	latest   = time.Date(9999, time.December, 31, 0, 0, 0, 0, time.UTC)
)

// AtAnyTime is a Spec.Check for an input whose check compares a value
// with the write's time (a birthdate not in the future): the time is read
// inside the transaction, from the clock or from the test clock the
// objects are bound to, so the check runs at the earliest and the latest
// time, and refuses before the transaction when both give the same
// problems (Settled). The clock is not read: the write's successful path
// reads it as often as before.
func AtAnyTime(check func(now time.Time) error) func() error {
	return func() error { return Settled(check(earliest), check(latest)) }
}
