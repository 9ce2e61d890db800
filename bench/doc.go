// Package bench is the benchmark harness: `make bench` (or
// `go test -run '^$' -bench . ./bench/`). It measures the REST API end to
// end over HTTP at several concurrencies and, beside it, the same SQL
// statements run bare on the same PostgreSQL, which is the physical limit
// the API's overhead is judged against. Nothing here asserts on time.
package bench
