// Command testpg runs a command (make test's go test) with one test
// PostgreSQL server for every test process it starts.
//
// Without it each test package's process starts a cluster of its own and
// migrates a template in it before its first test: initdb, the server's
// start and the migrations, some forty times a run. Under testpg the
// processes find the server in the environment (testdb.SharedServerEnv,
// with the password of the role test databases belong to), and pgtestdb
// builds the migrated template once for all of them, under its advisory
// lock; each test still gets a fresh database cloned from it, dropped when
// it passes.
//
// The server is a throw-away test cluster (pgembed.StartTemp: on tmpfs when
// possible, durability off, a generated superuser password), stopped when
// the command exits; its exit status is testpg's.
//
//	go run ./internal/testenv/testpg -- go test ./...
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/frame-oss/payments-server/internal/platform/pgembed"
	"github.com/frame-oss/payments-server/internal/testenv/testdb"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testpg -- command [args...]")
		os.Exit(2)
	}
	os.Exit(run(args))
}

// run starts the server, runs the command with it and stops it.
func run(args []string) int {
	// Two test processes run at a time (go test -p), each with its tests'
	// pools: the server allows both processes' share.
	inst, err := pgembed.StartTemp(context.Background(), pgembed.Options{ForTests: true, MaxConnections: 600})
	if err != nil {
		fmt.Fprintln(os.Stderr, "testpg: start PostgreSQL:", err)
		return 1
	}
	defer func() { _ = inst.Stop() }()

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), testdb.SharedServerEnv+"="+inst.URL("postgres"),
		testdb.SharedRolePasswordEnv+"="+rand.Text())
	// An interrupt reaches the command's process group from the terminal;
	// testpg waits for the command to end, then stops the server.
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if code := exit.ExitCode(); code > 0 {
			return code
		}
		return 1
	default:
		fmt.Fprintln(os.Stderr, "testpg:", err)
		return 1
	}
}
