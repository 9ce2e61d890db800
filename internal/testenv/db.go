package testenv

import (
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// Main runs a test package's tests and then stops the embedded PostgreSQL
// the package started. Use it from TestMain.
func Main(m *testing.M) { testdb.Main(m) }

// NewDatabaseURL returns the URL of a fresh, migrated database for t.
func NewDatabaseURL(t testing.TB) string { return testdb.NewDatabaseURL(t) }
