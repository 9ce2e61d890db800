package testdb

import "testing"

// Long marks t as one of the tests `make test-short` leaves out (go test
// -short): a test that starts PostgreSQL servers, processes or a browser of
// its own, or that runs for many seconds. make test, which CI runs, runs
// it; what says what makes it long, for the skip message.
func Long(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("long (%s): make test runs it, make test-short does not", what)
	}
}
