package pgembed

import (
	"log/slog"
	"path/filepath"
)

// DefaultDataDir is used by Start when Options.DataDir is empty.
const DefaultDataDir = ".data"

// Options configures Start and StartTemp.
type Options struct {
	// DataDir holds the cluster (in DataDir/pg), the server log
	// (DataDir/postgres.log), the superuser password
	// (DataDir/postgres.password), the unix socket directory (DataDir/run,
	// when the path is short enough) and the launcher lock. It is created
	// if missing and made private (0700; owned by the postgres user when
	// running as root). Empty means DefaultDataDir. Ignored by StartTemp.
	DataDir string

	// ForTests trades durability for speed (fsync, synchronous_commit and
	// full_page_writes off, initdb --no-sync) and raises max_connections so
	// that many parallel test databases fit. Implied by StartTemp. Has no
	// effect when attaching to a server that is already running. It does
	// not relax access: test clusters require the password too.
	ForTests bool

	// MaxConnections replaces a test cluster's max_connections (300) when
	// positive: a server shared by several test processes allows more.
	MaxConnections int

	// Logger receives lifecycle events. May be nil.
	Logger *slog.Logger
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger.With("component", "pgembed")
}

func (o Options) dataDir() (string, error) {
	d := o.DataDir
	if d == "" {
		d = DefaultDataDir
	}
	return filepath.Abs(d)
}
