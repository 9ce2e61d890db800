// Command generate regenerates the GraphQL executor (graph/generated) and
// the resolver stubs (resolvers) from graph/schema, as `go tool gqlgen
// generate` does, with the same gqlgen.yml, and then makes the executor
// run a query in the goroutine that asks for it and do less per field:
// object fields resolve one after another (sequentialFields), and a few
// calls of gqlgen's runtime are replaced by graph/generated's own with the
// same answers (rewriteExecutor): lists marshal their elements one after
// another, a field that is not a resolver skips the field middleware, a
// scalar field's context and an object's deferred path are not built when
// nothing reads them, an object is written from a field set of its own
// (graph/generated/object_field_set.go), and no request builds the map of
// input unmarshalers nothing reads. A plain field of a scalar type gets
// its field context and the context value carrying it in one allocation
// (rewriteScalarFields), and an enum value is written by a marshaler made
// once per name.
//
// gqlgen runs every resolver field of an object and every element of a
// list in a goroutine of its own so that dataloaders waiting on a timer
// see many keys at once. The graph's loaders never wait: edges are read a
// level at a time by looking ahead before the objects resolve
// (graph/loaders, LookAhead), so those goroutines batched nothing and cost
// their creation, their stacks and their scheduling on every object
// (docs/performance.md, "List and GraphQL read shapes"). The per-field
// work is what a page of objects costs once the goroutines are gone
// (docs/performance.md, "The GraphQL page of 50 accounts").
//
// Run it from the module root: `make generate` (go run ./graph/generate).
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/99designs/gqlgen/api"
	"github.com/99designs/gqlgen/codegen/config"
)

func main() {
	verbose := flag.Bool("v", false, "show gqlgen's log")
	flag.Parse()
	if !*verbose {
		log.SetOutput(io.Discard)
	}
	if err := generate(); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func generate() error {
	cfg, err := config.LoadConfigFromDefaultLocations()
	if err != nil {
		return err
	}
	if err := api.Generate(cfg, api.AddPlugin(sequentialFields{})); err != nil {
		return err
	}
	return rewriteExecutor(&cfg.Exec)
}
