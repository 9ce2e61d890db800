package pgembed

// logPrivacySettings keep the values of statements (names, emails, metadata,
// key hashes...) out of postgres.log. They are passed on the command line,
// which takes precedence over postgresql.conf and ALTER SYSTEM, to every
// postgres the launcher runs (the server and the single-user upgrade). The
// server that runs the statements gets every error with its cause and logs
// what it needs under the request id; the database log keeps the server's
// own life (start, checkpoints, shutdown, crashes) and refused connections.
func logPrivacySettings() []string {
	return []string{
		// Never log statement texts as such (the default, made explicit:
		// "mod"/"all" would log every INSERT with its inlined values).
		"-c", "log_statement=none",
		// Nor statements because they were slow or sampled: those lines
		// carry the full text too.
		"-c", "log_min_duration_statement=-1",
		"-c", "log_min_duration_sample=-1",
		"-c", "log_transaction_sample_rate=0",
		// A failing statement is logged with a "STATEMENT: <text>" line
		// for every message at or above this level (default: error). Panic
		// is the highest level there is, which turns those lines off; it
		// also covers FATALs such as "terminating connection due to
		// administrator command" hitting a running statement.
		"-c", "log_min_error_statement=panic",
		// Terse drops the DETAIL, HINT, QUERY and CONTEXT lines of what
		// is still logged: "Key (email)=(...) already exists", "Failing row
		// contains (...)", the queries of a deadlock report.
		"-c", "log_error_verbosity=terse",
		// The primary message of an ERROR can carry an input value itself
		// (`invalid input syntax for type uuid: "..."`, `invalid input
		// value for enum ...: "..."`), so client errors and warnings are
		// not logged at all: the level "log" keeps LOG, FATAL and PANIC
		// (start-up, checkpoints, shutdown, failed authentications) and
		// drops WARNING and ERROR, which the client (the server) receives.
		"-c", "log_min_messages=log",
		// Bind parameter values are never appended to log lines (statement
		// logging, which is off anyway, and errors).
		"-c", "log_parameter_max_length=0",
		"-c", "log_parameter_max_length_on_error=0",
	}
}
