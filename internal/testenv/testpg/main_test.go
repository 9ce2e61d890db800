package main

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

// helperEnv makes the test binary, started by run, the command: it
// connects to the server it was given and exits with helperExit.
const (
	helperEnv  = "TESTPG_HELPER"
	helperExit = 3
)

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(helper())
	}
	os.Exit(m.Run())
}

// helper checks what a test process under testpg is given: a server the
// superuser URL reaches, and the test role's password.
func helper() int {
	conn, err := pgx.Connect(context.Background(), os.Getenv(testdb.SharedServerEnv))
	if err != nil {
		return 1
	}
	defer conn.Close(context.Background())
	var one int
	if conn.QueryRow(context.Background(), "SELECT 1").Scan(&one) != nil || one != 1 {
		return 1
	}
	if os.Getenv(testdb.SharedRolePasswordEnv) == "" {
		return 1
	}
	return helperExit
}

// The command runs with the shared server in its environment, and its exit
// status is testpg's.
func TestRunGivesTheCommandTheServerAndItsExitStatus(t *testing.T) {
	testdb.Long(t, "starts a PostgreSQL cluster of its own")
	t.Setenv(helperEnv, "1")
	if got := run([]string{os.Args[0]}); got != helperExit {
		t.Fatalf("run returned %d, want the command's status %d (1: the command found no server)", got, helperExit)
	}
}
