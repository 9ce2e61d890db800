// Package failover is the failover drill (docs/scaling.md, "Failover"): a
// primary with a synchronous standby, the server pointed at both by a
// multi-host DATABASE_URL with target_session_attrs=read-write, a load of
// idempotent card charges, kill -9 of the primary, pg_ctl promote of the
// standby, and the checks that nothing acknowledged was lost and nothing
// happened twice. `go test ./bench/failover` runs its short form (part of
// make test); `make failover-drill` runs it longer and prints its figures.
package failover
