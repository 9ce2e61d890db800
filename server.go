// Command server is the payments-platform API server and its operator CLI.
//
//	server serve      [--addr :8080] [--data-dir ./.data]
//	server migrate    [--data-dir ./.data]
//	server merchants create --name NAME [--products p1,p2] [--disabled-capabilities c1,c2] [--with-default-fees] [--json]
//	server merchants list [--json]
//	server keys rotate --merchant ID --mode sandbox|production --kind secret|publishable [--grace 24h] [--json]
//	server keys revoke --key KEY_OR_PREFIX [--merchant ID]
//	server seed --merchant ID [--json]
//	server backup --out FILE
//	server restore --in FILE [--force]
//
// Without DATABASE_URL every command uses a private PostgreSQL in the data
// dir, started on demand (or shared with a server already running there).
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: server <command> [flags]

commands:
  serve                 run the API server (REST /v1, GraphQL /graphql, playground /playground)
  migrate               apply database migrations and exit
  merchants create      create a merchant and print its four API keys (shown once)
  merchants list        list merchants
  keys rotate           issue a new key for a merchant's mode, retiring the old one
  keys revoke           revoke a key by its value or display prefix
  seed                  fill a merchant's sandbox with sample data for dashboards
  backup                write the database to a file (pg_dump), while servers run
  restore               load a backup into an empty database (pg_restore)
  openapi               print the OpenAPI document of the REST API (no database needed)

environment:
  DATABASE_URL          use this PostgreSQL instead of the embedded one
  ADDR                  listen address of serve (default :8080)
  DATA_DIR              data folder of the embedded PostgreSQL (default ./.data)
  DATABASE_MAX_CONNS    most database connections per process (default 4 per CPU, at least 8)
  LOG_LEVEL             debug, info, warn or error (default info)
  SERVER_SECRET         key of the fingerprints the server stores (default: one
                        generated and kept in the database; see docs/operations.md)
  HTTP_*                serve's HTTP limits: timeouts, header size, connections,
                        requests in flight (see 'server serve -h')
  RATE_LIMIT_*          serve's per-merchant rate limits (see 'server serve -h')
  CREDENTIAL_CACHE_TTL, CREDENTIAL_CACHE_SIZE
                        serve's cache of verified credentials (default 30s, 10000)
  GRAPHQL_INTROSPECTION, GRAPHQL_PLAYGROUND
                        false turns GraphQL introspection / the playground off
  GRAPHQL_INTROSPECTION_ANONYMOUS
                        true answers introspection without a secret key (local
                        development only)
  CORS_ORIGINS          origins whose pages may call the API from a browser
                        (default none; see docs/security.md)

run 'server <command> -h' for a command's flags.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "serve":
		err = serveCommand(rest, stderr)
	case "migrate":
		err = migrateCommand(rest, stdout, stderr)
	case "merchants":
		err = merchantsCommand(rest, stdout, stderr)
	case "keys":
		err = keysCommand(rest, stdout, stderr)
	case "seed":
		err = seedCommand(rest, stdout, stderr)
	case "backup":
		err = backupCommand(rest, stdout, stderr)
	case "restore":
		err = restoreCommand(rest, stdout, stderr)
	case "openapi":
		err = openAPICommand(rest, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if err != nil {
		if err == errUsage {
			return 2
		}
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	return 0
}
