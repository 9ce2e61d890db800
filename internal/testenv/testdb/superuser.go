package testdb

import (
	"net/url"
	"testing"
)

// SuperuserURL returns dbURL (a test database's) with the server's
// superuser credentials instead of the test role's. Loading rows as they
// were stored needs them: session_replication_role = replica (the triggers
// and foreign-key checks off, as pg_restore --disable-triggers does) is a
// superuser's setting.
func SuperuserURL(t testing.TB, dbURL string) string {
	t.Helper()
	cfg := serverConfig(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("testdb: parse database URL: %v", err)
	}
	u.User = url.UserPassword(cfg.User, cfg.Password)
	return u.String()
}
