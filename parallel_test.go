package main

import (
	"flag"
	"strconv"
)

// childTestsAtOnce is how many of this package's parallel tests run at
// once unless -parallel says otherwise. They spend most of their time
// waiting on processes of their own (servers, their PostgreSQL clusters,
// a browser) rather than on the CPU, so go test's default (GOMAXPROCS,
// two on a small machine) would leave them waiting in turn.
const childTestsAtOnce = 4

// raiseParallel applies childTestsAtOnce when -parallel was not given. It
// runs from TestMain, before the tests read the flag.
func raiseParallel() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(childTestsAtOnce))
	}
}
