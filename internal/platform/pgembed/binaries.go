package pgembed

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrNoPostgres is returned (wrapped) when no PostgreSQL server installation
// can be found.
var ErrNoPostgres = errors.New("pgembed: no PostgreSQL server installation found " +
	"(looked at $PG_BINDIR, `pg_config --bindir`, initdb+postgres on $PATH and /usr/lib/postgresql/*/bin); " +
	"install PostgreSQL (e.g. `apt-get install -y postgresql`) or set DATABASE_URL to use an existing server")

// Binaries locates the server programs the launcher needs.
type Binaries struct {
	Dir      string // directory the binaries were found in
	Initdb   string // path to initdb
	Postgres string // path to postgres
}

// debianPGRoot is where Debian/Ubuntu packages install versioned servers.
// A variable so tests could point it elsewhere.
var debianPGRoot = "/usr/lib/postgresql"

// FindBinaries locates initdb and postgres, in this order:
//  1. $PG_BINDIR (when set it must contain both; a wrong value is an error
//     rather than being silently ignored),
//  2. `pg_config --bindir` (note Debian's /usr/bin/pg_config may come from
//     libpq-dev without a server, hence the check for the binaries),
//  3. initdb and postgres on $PATH,
//  4. the newest /usr/lib/postgresql/<version>/bin (Debian does not put the
//     server binaries on $PATH).
func FindBinaries() (Binaries, error) {
	if dir := os.Getenv("PG_BINDIR"); dir != "" {
		b, ok := binariesIn(dir)
		if !ok {
			return Binaries{}, fmt.Errorf("pgembed: PG_BINDIR=%q does not contain initdb and postgres", dir)
		}
		return b, nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if b, ok := binariesIn(strings.TrimSpace(string(out))); ok {
			return b, nil
		}
	}
	if initdb, err := exec.LookPath("initdb"); err == nil {
		if postgres, err := exec.LookPath("postgres"); err == nil {
			return Binaries{Dir: filepath.Dir(initdb), Initdb: initdb, Postgres: postgres}, nil
		}
	}
	for _, dir := range debianBinDirs() {
		if b, ok := binariesIn(dir); ok {
			return b, nil
		}
	}
	return Binaries{}, ErrNoPostgres
}

// tool is another program of the installation (pg_basebackup, pg_ctl),
// which Debian ships in the same directory as the server.
func (b Binaries) tool(name string) string { return filepath.Join(b.Dir, name) }

func binariesIn(dir string) (Binaries, bool) {
	if dir == "" {
		return Binaries{}, false
	}
	b := Binaries{Dir: dir, Initdb: filepath.Join(dir, "initdb"), Postgres: filepath.Join(dir, "postgres")}
	return b, isExecutable(b.Initdb) && isExecutable(b.Postgres)
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// debianBinDirs returns /usr/lib/postgresql/<version>/bin, newest first.
func debianBinDirs() []string {
	entries, err := os.ReadDir(debianPGRoot)
	if err != nil {
		return nil
	}
	type ver struct {
		name  string
		parts []int
	}
	var vers []ver
	for _, e := range entries {
		var parts []int
		for _, p := range strings.Split(e.Name(), ".") {
			n, err := strconv.Atoi(p)
			if err != nil {
				parts = nil
				break
			}
			parts = append(parts, n)
		}
		if parts != nil {
			vers = append(vers, ver{e.Name(), parts})
		}
	}
	sort.Slice(vers, func(i, j int) bool {
		a, b := vers[i].parts, vers[j].parts
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] > b[k]
			}
		}
		return len(a) > len(b)
	})
	dirs := make([]string, len(vers))
	for i, v := range vers {
		dirs[i] = filepath.Join(debianPGRoot, v.name, "bin")
	}
	return dirs
}
