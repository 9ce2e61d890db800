package pgembed

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/childproc"
)

// Who may connect (finding: "any local user is superuser").
//
// The cluster's only role is the bootstrap superuser "postgres". Every
// connection, over TCP on 127.0.0.1 and over the unix socket alike, must
// authenticate with scram-sha-256 and a password generated when the data
// directory is first used and kept in DataDir/postgres.password (mode 0600,
// in a 0700 data directory). The processes that use the cluster (the server
// that started it, and every command that attaches to it) read the password
// from there; no other OS user can read it, so no other local user can
// connect, even though the port is reachable by every local process.
//
// Clusters made by earlier versions used "trust" and a role without a
// password. They are upgraded the first time this code starts their server
// (see ensureAuth): a password is generated, set on the role in single-user
// mode (nothing listens meanwhile) and pg_hba.conf is replaced. A server
// started by an older version keeps trusting connections until it is
// restarted by this one; attaching to it works meanwhile (no password file
// yet, and trust accepts any).

const (
	// passwordFileName holds the superuser password (one line), 0600.
	passwordFileName = "postgres.password"
	// hbaFileName is the cluster's client authentication file.
	hbaFileName = "pg_hba.conf"
	// hbaMarker is the first line of the pg_hba.conf we write; a file without
	// it (initdb's, or a trust file of an older version) is replaced.
	hbaMarker = "# pgembed: scram-sha-256 v2"
	// scramIterations is PostgreSQL's default scram_iterations.
	scramIterations = 4096
	// singleUserTimeout bounds the single-user run that sets the password
	// of an upgraded cluster.
	singleUserTimeout = 2 * time.Minute
)

// managedHBA is the pg_hba.conf of every cluster: the password for everyone,
// on the socket and on loopback, for sessions and for streaming replication
// (a local standby, standby.go, copies and follows the cluster as the same
// superuser); nothing else (no other addresses; the server listens on
// 127.0.0.1 only anyway). Version 1 refused replication; its clusters get
// this file on their next start.
const managedHBA = hbaMarker + `
# Written by the payments server's embedded PostgreSQL launcher (pgembed);
# replaced on start when it does not begin with the line above. Every
# connection authenticates with the superuser password kept in
# <data dir>/postgres.password (0600).
# TYPE  DATABASE  USER  ADDRESS        METHOD
local   all       all                  scram-sha-256
host    all       all   127.0.0.1/32   scram-sha-256
host    all       all   ::1/128        scram-sha-256
host    replication  all  127.0.0.1/32   scram-sha-256
`

// ErrPasswordUnreadable is returned (wrapped) when the password file of a
// data directory exists but this process may not read it: the data
// directory belongs to another user.
var ErrPasswordUnreadable = errors.New("pgembed: cannot read the PostgreSQL password file " +
	"(the data directory belongs to another user; run as that user or as root)")

// newPassword returns 32 random bytes in hex: URL-safe as it is, so it
// needs no escaping in connection URLs (pgtestdb formats them unescaped).
func newPassword() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("pgembed: generate password: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// readPassword returns the password kept in root, or "" when root has no
// password file (a data directory of an older version, whose server
// trusts every connection).
func readPassword(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, passwordFileName))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", nil
	case errors.Is(err, os.ErrPermission):
		return "", fmt.Errorf("%w: %v", ErrPasswordUnreadable, err)
	case err != nil:
		return "", fmt.Errorf("pgembed: read password: %w", err)
	}
	pw, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(pw), nil
}

// loadOrCreatePassword returns root's password, generating and storing it
// (0600, atomically) when there is none yet. created reports the latter.
// When we are root the file is given to the server user, so that initdb
// (which runs as that user) can read it through --pwfile.
func loadOrCreatePassword(root string, ru *runAs) (pw string, created bool, err error) {
	if pw, err = readPassword(root); err != nil {
		return "", false, err
	}
	if pw != "" {
		// initdb reads it as the server user (a data dir may have been
		// used by a non-root run before).
		if ru != nil {
			if err := os.Chown(filepath.Join(root, passwordFileName), int(ru.uid), int(ru.gid)); err != nil {
				return "", false, fmt.Errorf("pgembed: %w", err)
			}
		}
		return pw, false, nil
	}
	if pw, err = newPassword(); err != nil {
		return "", false, err
	}
	if err := writePrivateFile(filepath.Join(root, passwordFileName), []byte(pw+"\n"), ru); err != nil {
		return "", false, err
	}
	return pw, true, nil
}

// writePrivateFile writes path atomically (temp file + rename) with mode
// 0600, owned by the server user when we are root.
func writePrivateFile(path string, content []byte, ru *runAs) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("pgembed: write %s: %w", path, err)
	}
	tmp := f.Name()
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(content)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && ru != nil {
		err = os.Chown(tmp, int(ru.uid), int(ru.gid))
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("pgembed: write %s: %w", path, err)
	}
	return nil
}

// hbaIsManaged reports whether the cluster's pg_hba.conf is the one we
// write.
func hbaIsManaged(cluster string) bool {
	b, err := os.ReadFile(filepath.Join(cluster, hbaFileName))
	return err == nil && bytes.HasPrefix(b, []byte(hbaMarker+"\n"))
}

// ensureAuth makes the cluster require the password before the server
// starts. For a cluster initdb just made (fresh), the role already has the
// password (initdb --pwfile) and only pg_hba.conf is written. For an
// existing cluster whose pg_hba.conf is not ours (made by an older version,
// which trusted everyone) or whose password file was just (re)generated
// (deleted by an operator to reset the password), the password is set on
// the role in single-user mode, then pg_hba.conf is replaced. Every step is
// idempotent, so a crash half-way is finished by the next start; the
// server never starts with a trusting pg_hba.conf.
func ensureAuth(ctx context.Context, c launchConfig, pw string, pwCreated, fresh bool) error {
	managed := hbaIsManaged(c.cluster())
	if !fresh && (pwCreated || !managed) {
		c.log.Info("setting the generated superuser password on the cluster", "dir", c.cluster())
		if err := setPasswordSingleUser(ctx, c, pw); err != nil {
			return err
		}
	}
	if fresh || !managed {
		if err := writePrivateFile(filepath.Join(c.cluster(), hbaFileName), []byte(managedHBA), c.ru); err != nil {
			return err
		}
	}
	return nil
}

// setPasswordSingleUser sets the superuser's password with PostgreSQL in
// single-user mode: no socket, no port, so there is no moment at which the
// cluster accepts connections without the password. The statement carries
// a SCRAM verifier computed here, never the password itself.
func setPasswordSingleUser(ctx context.Context, c launchConfig, pw string) error {
	verifier, err := scramVerifier(pw)
	if err != nil {
		return err
	}
	args := append([]string{"--single", "-D", c.cluster()}, logPrivacySettings()...)
	args = append(args, "template1")
	var out bytes.Buffer
	cmd := c.command(c.bins.Postgres, args, nil)
	cmd.Stdin = strings.NewReader("ALTER ROLE " + superuser + " WITH LOGIN PASSWORD '" + verifier + "';\n")
	cmd.Stdout = &out
	cmd.Stderr = &out
	proc, err := childproc.Start(cmd)
	if err != nil {
		return fmt.Errorf("pgembed: run postgres --single: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, singleUserTimeout)
	defer cancel()
	err = proc.WaitOrKill(sctx)
	// Single-user mode exits 0 even when the statement failed.
	if err == nil && (strings.Contains(out.String(), "ERROR:") || strings.Contains(out.String(), "FATAL:")) {
		err = errors.New("the statement failed")
	}
	if err != nil {
		return fmt.Errorf("pgembed: set the superuser password in single-user mode: %w\n%s", err, strings.TrimSpace(out.String()))
	}
	return nil
}

// scramVerifier computes the SCRAM-SHA-256 secret PostgreSQL stores for a
// password (RFC 5802/7677, PostgreSQL's format), which ALTER ROLE accepts
// as is:
//
//	SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
func scramVerifier(pw string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("pgembed: generate salt: %w", err)
	}
	return scramVerifierWithSalt(pw, salt, scramIterations)
}

func scramVerifierWithSalt(pw string, salt []byte, iterations int) (string, error) {
	salted, err := pbkdf2.Key(sha256.New, pw, salt, iterations, sha256.Size)
	if err != nil {
		return "", fmt.Errorf("pgembed: derive SCRAM key: %w", err)
	}
	mac := func(key []byte, msg string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(msg))
		return h.Sum(nil)
	}
	clientKey := mac(salted, "Client Key")
	storedKey := sha256.Sum256(clientKey)
	serverKey := mac(salted, "Server Key")
	b64 := base64.StdEncoding.EncodeToString
	return "SCRAM-SHA-256$" + strconv.Itoa(iterations) + ":" + b64(salt) + "$" +
		b64(storedKey[:]) + ":" + b64(serverKey), nil
}
