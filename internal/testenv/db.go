package testenv

import (
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// Main runs a test package's tests and then stops the embedded PostgreSQL
// the package started. Use it from TestMain. Each check runs after the
// tests; one that reports false fails the package (a check over what every
// test did, such as the REST contract test).
func Main(m *testing.M, checks ...func() bool) { testdb.Main(m, checks...) }

// NewDatabaseURL returns the URL of a fresh, migrated database for t.
func NewDatabaseURL(t testing.TB) string { return testdb.NewDatabaseURL(t) }

// Long marks t as one of the tests `make test-short` leaves out: one that
// starts servers, processes or a browser of its own, or runs for seconds.
// make test (CI) runs every test.
func Long(t testing.TB, what string) {
	t.Helper()
	testdb.Long(t, what)
}
