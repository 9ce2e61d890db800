package testdb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/peterldowns/pgtestdb"
)

// A test process clones its migrated template for every test, hundreds of
// times in the larger packages. pgtestdb builds the template (once, under
// its advisory lock) and the first database; the clones after it are made
// here, for two costs pgtestdb pays on every one:
//   - it connects as the superuser for each creation and again for each
//     drop, and connects once more to the new database: three password
//     (SCRAM) handshakes and three backend starts per test; a clone here
//     uses one superuser pool kept for the process;
//   - it copies with CREATE DATABASE's default strategy, WAL_LOG, which
//     writes every page of the template through the write-ahead log; a
//     clone here asks for FILE_COPY, which copies the files (about a third
//     of the time for this schema). Its checkpoints cost little on a test
//     server, which runs with fsync off.
//
// What a test sees does not change: a fresh database owned by the test
// role, named as pgtestdb names its instances, logged the same way, and
// dropped when the test passes (kept for inspection when it fails).

// migrated is the template every clone comes from, once known.
var migrated atomic.Pointer[template]

// template is a migrated template database and how to clone it.
type template struct {
	conf pgtestdb.Config // the test role's view of the template
	name string

	adminOnce sync.Once
	admin     *sql.DB
	adminErr  error
}

// templateOf derives the template pgtestdb cloned instance from: its
// instances are named "<template>_inst_<random>".
func templateOf(instance *pgtestdb.Config) (*template, error) {
	name, _, ok := strings.Cut(instance.Database, "_inst_")
	if !ok {
		return nil, fmt.Errorf("testdb: %q is not named as a pgtestdb instance", instance.Database)
	}
	return &template{conf: *instance, name: name}, nil
}

// adminDB is the superuser pool clones are created and dropped with.
func (tpl *template) adminDB(server pgtestdb.Config) (*sql.DB, error) {
	tpl.adminOnce.Do(func() {
		tpl.admin, tpl.adminErr = sql.Open(server.DriverName, server.URL())
		if tpl.adminErr == nil {
			tpl.admin.SetMaxIdleConns(4)
		}
	})
	return tpl.admin, tpl.adminErr
}

// clone creates a fresh copy of the template for t and returns its URL.
func (tpl *template) clone(t testing.TB, server pgtestdb.Config) string {
	t.Helper()
	admin, err := tpl.adminDB(server)
	if err != nil {
		t.Fatalf("testdb: connect to the server: %v", err)
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	conf := tpl.conf
	conf.Database = tpl.name + "_inst_" + hex.EncodeToString(suffix)
	db := pgx.Identifier{conf.Database}.Sanitize()
	create := fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s OWNER %s STRATEGY FILE_COPY",
		db, pgx.Identifier{tpl.name}.Sanitize(), pgx.Identifier{conf.User}.Sanitize())
	if _, err := admin.ExecContext(context.Background(), create); err != nil {
		t.Fatalf("testdb: clone the template: %v", err)
	}
	t.Logf("testdbconf: %s", conf.URL())
	t.Cleanup(func() {
		if t.Failed() {
			return // kept for inspection, as pgtestdb keeps it
		}
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+db); err != nil {
			t.Fatalf("testdb: drop test database %s (a connection left open?): %v", conf.Database, err)
		}
	})
	return conf.URL()
}
