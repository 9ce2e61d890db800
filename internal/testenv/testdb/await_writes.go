package testdb

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
)

// writesChannel is the notification channel of AwaitWrites's trigger.
const writesChannel = "test_table_written"

// AwaitWrites checks done now and again after each committed statement
// that writes one of tables in the database at url, until done holds. A
// test whose work happens elsewhere (a job engine, a dispatcher, a server
// process) waits this way on the state that work reaches, never on a
// stretch of wall-clock time: it adds to its own database a trigger
// notifying every statement on those tables and listens before done's
// first check, so no write after that check is missed. It has no deadline
// of its own (the test binary's timeout guards a state never reached).
func AwaitWrites(t testing.TB, url string, done func() bool, tables ...string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("testdb: await writes: %v", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	stmts := []string{`CREATE OR REPLACE FUNCTION test_table_written() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN PERFORM pg_notify('` + writesChannel + `', TG_TABLE_NAME); RETURN NULL; END $$`}
	for _, table := range tables {
		stmts = append(stmts, fmt.Sprintf(`CREATE OR REPLACE TRIGGER test_table_written AFTER INSERT OR UPDATE OR DELETE ON %s
			FOR EACH STATEMENT EXECUTE FUNCTION test_table_written()`, pgx.Identifier{table}.Sanitize()))
	}
	stmts = append(stmts, "LISTEN "+writesChannel)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("testdb: await writes: %v", err)
		}
	}
	for !done() {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			t.Fatalf("testdb: await writes: %v", err)
		}
	}
}
