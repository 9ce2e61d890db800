package pgembed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
)

// serverUserName is the system account used to run PostgreSQL when this
// process is root.
const serverUserName = "postgres"

// runAs describes the account the server programs run as. A nil *runAs means
// "as ourselves" (we are not root).
type runAs struct {
	name string
	uid  uint32
	gid  uint32
}

// credential returns the SysProcAttr credential for child processes, or nil
// when no switch is needed.
//
// NoSetGroups keeps setgroups(2) out of the child: it fails with EPERM in
// user namespaces where setgroups is denied (rootless containers). The cost
// is that the child keeps our supplementary groups, which checkTraversable
// takes into account.
func (r *runAs) credential() *syscall.Credential {
	if r == nil {
		return nil
	}
	return &syscall.Credential{Uid: r.uid, Gid: r.gid, NoSetGroups: true}
}

// serverUser decides who runs initdb/postgres. Both refuse to run as root
// ("root execution of the PostgreSQL server is not permitted"), so as root we
// drop to the postgres system user, creating it if the image lacks it
// (typical for minimal containers that only installed the binaries).
func serverUser() (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup(serverUserName)
	if err != nil {
		var unknown user.UnknownUserError
		if !errors.As(err, &unknown) {
			return nil, fmt.Errorf("pgembed: look up user %q: %w", serverUserName, err)
		}
		out, cerr := exec.Command("useradd", "--system", "--no-create-home", serverUserName).CombinedOutput()
		if cerr != nil {
			return nil, fmt.Errorf("pgembed: running as root, PostgreSQL must run as the %q user, "+
				"which does not exist and could not be created (useradd --system --no-create-home %s: %v: %s); "+
				"create it or run as a non-root user", serverUserName, serverUserName, cerr, out)
		}
		if u, err = user.Lookup(serverUserName); err != nil {
			return nil, fmt.Errorf("pgembed: look up user %q after useradd: %w", serverUserName, err)
		}
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgembed: user %q has non-numeric uid %q", serverUserName, u.Uid)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgembed: user %q has non-numeric gid %q", serverUserName, u.Gid)
	}
	if uid == 0 {
		return nil, fmt.Errorf("pgembed: user %q has uid 0; PostgreSQL will not run as root", serverUserName)
	}
	return &runAs{name: serverUserName, uid: uint32(uid), gid: uint32(gid)}, nil
}

// giveTo hands a directory tree we created to the server user (recursively).
// No-op when not running as root.
func (r *runAs) giveTo(dir string) error {
	if r == nil {
		return nil
	}
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, int(r.uid), int(r.gid))
	})
	if err != nil {
		return fmt.Errorf("pgembed: chown %s to %s: %w", dir, r.name, err)
	}
	return nil
}

// owns reports whether dir itself is owned by the server user.
func (r *runAs) owns(dir string) (bool, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return false, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return true, nil
	}
	return st.Uid == r.uid, nil
}

// mkdirAllTraversable creates dir and missing parents with mode 0755. The
// mode is forced with chmod because a restrictive umask (common for root)
// would otherwise leave directories the server user cannot traverse.
func mkdirAllTraversable(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("pgembed: create %s: %w", dir, err)
	}
	for _, d := range missing {
		if err := os.Chmod(d, 0o755); err != nil {
			return fmt.Errorf("pgembed: chmod %s: %w", d, err)
		}
	}
	return nil
}

// ensurePrivateDir creates the data dir (its parents must exist) or, when it
// exists, tightens it: mode 0700, owned by the server user when we are
// root (which may still enter it), so that no other user can list it or
// read the password file and log inside. A data dir an older version made
// world-readable (0755) is fixed on the next start.
func ensurePrivateDir(dir string, ru *runAs) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("pgembed: create %s: %w", dir, err)
	}
	if ru != nil {
		if err := os.Chown(dir, int(ru.uid), int(ru.gid)); err != nil {
			return fmt.Errorf("pgembed: chown %s to %s: %w", dir, ru.name, err)
		}
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("pgembed: make data dir %s private (chmod 0700): %w", dir, err)
	}
	return nil
}

// checkTraversable verifies that the server user can reach dir, i.e. has
// search (x) permission on dir and every ancestor. Without this the server
// fails later with a much less helpful "Permission denied" in its log.
// The child keeps our supplementary groups (NoSetGroups), so they count.
func (r *runAs) checkTraversable(dir string) error {
	if r == nil {
		return nil
	}
	groups, _ := os.Getgroups()
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("pgembed: %w", err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		perm := fi.Mode().Perm()
		var can bool
		switch {
		case st.Uid == r.uid:
			can = perm&0o100 != 0
		case st.Gid == r.gid || slices.Contains(groups, int(st.Gid)):
			can = perm&0o010 != 0
		default:
			can = perm&0o001 != 0
		}
		if !can {
			return fmt.Errorf("pgembed: PostgreSQL runs as user %q (we are root) but cannot traverse %s (mode %v); "+
				"use a data directory whose parents are world-searchable (chmod o+x), not e.g. t.TempDir()",
				r.name, d, perm)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}
