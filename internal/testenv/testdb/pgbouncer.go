//go:build linux

package testdb

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/pgembed"
)

// PgBouncer is Debian's pgbouncer (scripts/ensure-pgbouncer.sh installs
// it) in transaction mode in front of one database of a server, for the
// tests that run the server's flows through a pooler. It is configured as
// docs/scaling.md tells an operator to.
type PgBouncer struct {
	// URL reaches database through the pooler.
	URL string
	cmd *exec.Cmd
}

// StartPgBouncer runs pgbouncer in front of database on server until t
// ends, and returns once it accepts connections. A test with a pooler is
// Long: make test-short leaves it out.
func StartPgBouncer(t testing.TB, server *pgembed.Instance, database string) *PgBouncer {
	t.Helper()
	Long(t, "a pgbouncer process")
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		bin = "/usr/sbin/pgbouncer"
	}
	direct, err := url.Parse(server.URL(database))
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	password, _ := direct.User.Password()
	dir, err := os.MkdirTemp("", "pgbouncer-")
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	ini := fmt.Sprintf(`[databases]
%[1]s = host=127.0.0.1 port=%[2]d dbname=%[1]s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %[3]d
unix_socket_dir =
auth_type = scram-sha-256
auth_file = %[4]s/userlist.txt
pool_mode = transaction
max_client_conn = 200
default_pool_size = 10
logfile = %[4]s/pgbouncer.log
`, database, server.Port(), port, dir)
	files := map[string]string{"pgbouncer.ini": ini, "userlist.txt": fmt.Sprintf("%q %q\n", "postgres", password)}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatalf("testdb: %v", err)
		}
	}
	cmd := exec.Command(bin, filepath.Join(dir, "pgbouncer.ini"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if os.Geteuid() == 0 {
		// pgbouncer refuses to run as root; it runs as PostgreSQL does.
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("testdb: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Chown(p, uid, gid)
		}); err != nil {
			t.Fatalf("testdb: %v", err)
		}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("testdb: start pgbouncer: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		<-done
	})
	pooled := *direct
	pooled.Host = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	b := &PgBouncer{URL: pooled.String(), cmd: cmd}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // guards against hanging only
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, b.URL)
		if err == nil {
			_ = conn.Close(ctx)
			return b
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			t.Fatalf("testdb: pgbouncer exited: %s", log)
		default:
		}
		if clock.Sleep(ctx, 20*time.Millisecond) != nil {
			t.Fatalf("testdb: pgbouncer does not answer: %v", err)
		}
	}
}
