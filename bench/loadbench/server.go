package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/childproc"
)

const (
	// readyTimeout bounds the server's start (initdb and migrations included).
	readyTimeout = 3 * time.Minute
	// stopTimeout bounds its shutdown (request drain, jobs, PostgreSQL's
	// fast shutdown) before it is killed.
	stopTimeout = 40 * time.Second
)

// moduleRoot is the folder of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; run from the repository")
		}
		dir = parent
	}
}

// buildServer builds the server binary of the module at root into bin.
func buildServer(ctx context.Context, root, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	return nil
}

// serverEnv is our environment without what would point the server
// elsewhere than the embedded database in the data dir we give it, and with
// the per-merchant rate limits and the per-client connection share off (a
// load test of one merchant from one address measures the server, not its
// limiters) unless set explicitly.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "DATABASE_URL", "ADDR", "DATA_DIR":
		default:
			env = append(env, kv)
		}
	}
	for _, name := range []string{"RATE_LIMIT_SANDBOX", "RATE_LIMIT_PRODUCTION", "HTTP_MAX_CONNS_PER_CLIENT"} {
		if _, set := os.LookupEnv(name); !set {
			env = append(env, name+"=0")
		}
	}
	return env
}

// server is a running `server serve`.
type server struct {
	p       *childproc.Process
	baseURL string // http://127.0.0.1:PORT
	logPath string
}

// startServer starts `bin serve` (with args) on a free loopback port with
// dataDir and waits until /readyz answers 200. Its output goes to logPath.
func startServer(ctx context.Context, bin, dataDir, logPath string, args ...string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer func() { _ = logFile.Close() }() // the child has its own descriptor
	addr := net.JoinHostPort("127.0.0.1", fmt.Sprint(port))
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--data-dir", dataDir}, args...)...)
	cmd.Env = serverEnv()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	p, err := startLocked(cmd)
	if err != nil {
		return nil, fmt.Errorf("start server: %w", err)
	}
	s := &server{p: p, baseURL: "http://" + addr, logPath: logPath}
	if err := s.waitReady(ctx); err != nil {
		s.stop()
		return nil, fmt.Errorf("%w%s", err, s.logTail())
	}
	return s, nil
}

func (s *server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		if s.p.Exited() {
			return fmt.Errorf("server exited before becoming ready (%v)", s.p.Wait())
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.baseURL+"/readyz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the server to be ready: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop shuts the server down (SIGINT: drain, stop jobs, stop PostgreSQL),
// killing its process group if it takes longer than stopTimeout.
func (s *server) stop() {
	if s == nil || s.p.Exited() {
		return
	}
	_ = s.p.Cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.p.Done():
	case <-time.After(stopTimeout):
		logf("server did not stop within %s; killing it", stopTimeout)
		_ = syscall.Kill(-s.p.Cmd.Process.Pid, syscall.SIGKILL)
		<-s.p.Done()
	}
}

// logTail is the end of the server's log, for error messages.
func (s *server) logTail() string {
	b, err := os.ReadFile(s.logPath)
	if err != nil || len(b) == 0 {
		return ""
	}
	if len(b) > 4<<10 {
		b = b[len(b)-4<<10:]
	}
	return "\n--- " + s.logPath + " ---\n" + strings.TrimSpace(string(b))
}

// merchant is what `server merchants create --json` prints that we use.
type merchant struct {
	Merchant struct {
		ID string `json:"id"`
	} `json:"merchant"`
	APIKeys struct {
		Sandbox struct {
			Secret string `json:"secret"`
		} `json:"sandbox"`
	} `json:"api_keys"`
}

// createMerchant runs the operator command next to the running server (it
// attaches to the server's database) and returns the merchant.
func createMerchant(ctx context.Context, bin, dataDir, name string) (merchant, error) {
	cmd := exec.CommandContext(ctx, bin, "merchants", "create", "--name", name, "--json", "--data-dir", dataDir)
	cmd.Env = serverEnv()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return merchant{}, fmt.Errorf("merchants create: %w: %s", err, strings.TrimSpace(errOut.String()))
	}
	var m merchant
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		return merchant{}, fmt.Errorf("merchants create: parse output: %w", err)
	}
	if m.Merchant.ID == "" || m.APIKeys.Sandbox.Secret == "" {
		return merchant{}, fmt.Errorf("merchants create: no merchant id or sandbox secret key in %q", out.String())
	}
	return m, nil
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
}
