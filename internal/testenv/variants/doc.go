// Package variants holds the test that keeps go test from compiling the
// module's heavy packages more than once per run.
//
// When a package P has test files of its own package (package P in a
// _test.go file, export_test.go included) and its external tests (package
// P_test) import something that imports P, go test must compile every
// package between P and those imports again against P's test build: a
// "test variant", printed by go list -test -deps as "Q [P.test]". The
// whole app (internal/testenv imports it) compiled again for one package's
// tests cost the cold build some 390 CPU seconds (docs/testing.md,
// "Packages compiled once"). The test here runs go list (no build) and
// fails naming the package and its in-package test files when one of the
// heavy packages is compiled as a variant of another package's test.
package variants
