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
// not exist) and chowns the directories it creates (cluster and socket
// directory) to that user. The directories above the cluster must be
// traversable by that user, which is why the temporary cluster is created
// with os.MkdirTemp and chmod'ed 0755 instead of living under t.TempDir()
// (whose 0700 root-owned parent would lock the postgres user out).
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
// the server belongs to whoever started it.
package pgembed
