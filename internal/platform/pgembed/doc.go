// Package pgembed runs a private PostgreSQL server from the PostgreSQL
// installation already present on the machine, without Docker.
//
// It serves two callers:
//
//   - the server binary (serve, migrate and merchants subcommands) when no
//     DATABASE_URL is configured: [Start] keeps a persistent cluster under
//     Options.DataDir (./.data by default) so data survives restarts;
//   - the test harness: [StartTemp] creates a throw-away cluster (on tmpfs
//     when possible) tuned for speed, one per `go test` process.
//
// # Running as root
//
// initdb and postgres refuse to run as root. Containers and CI runners very
// often run as root, so in that case the launcher runs both binaries as the
// unprivileged "postgres" system user (creating it with useradd when it does
// not exist) and chowns the data directory (0700) and what the server needs
// in it (cluster, socket directory, password file) to that user; root keeps
// access regardless. The directories above the data directory must be
// traversable by that user, which is why temporary clusters are created with
// os.MkdirTemp in /dev/shm or os.TempDir() instead of living under
// t.TempDir() (whose 0700 root-owned parent would lock the postgres user out).
//
// # Who can connect
//
// The server listens on 127.0.0.1 and on a unix socket in a private
// directory, and every connection must authenticate (scram-sha-256) as the
// superuser with a password generated when the data directory is first used
// and kept in DataDir/postgres.password (0600). The data directory is 0700,
// its files 0600, so only the user running the launcher (and root) can read
// the password, the log or the cluster; other local users reach the port but
// not the database. Data directories of older versions (trust
// authentication) are upgraded when this version next starts their server.
// See auth.go. Statement values are kept out of the server log
// (logging.go).
//
// # Lifetime
//
// The server is started directly (not through pg_ctl) so that this process
// owns its PID, and with a parent-death signal so that it never outlives the
// process that started it, even on SIGKILL or a crash; see process.go for
// the OS-thread subtlety that makes this work.
//
// # Attach mode
//
// Several CLI invocations may use the same data directory: a long-running
// `serve` may own the server while `migrate` or `merchants` run next to it.
// [Start] therefore takes an exclusive flock on DataDir/launcher.lock, and if
// a live, ready postmaster already serves the cluster it attaches to it
// instead of starting a second one (which PostgreSQL would refuse anyway).
// An attached [Instance] reports Owned() == false and its Stop is a no-op:
// the server belongs to whoever started it. The owner may restart the server,
// which then listens on another port: a pool that must survive that uses
// [Instance.Retarget] before each new connection (store.WithConnTarget).
package pgembed
