package variants

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the import path every package of the project starts with.
const module = "github.com/frame-oss/payments-server"

// heavy are the packages whose second compilation costs the most (each
// 15-60 CPU seconds under the race detector, or everything below the
// app): none may be compiled again for another package's tests.
var heavy = []string{
	module + "/graph/generated",
	module + "/resolvers",
	module + "/rest",
	module + "/internal/app",
	module + "/internal/testenv",
}

// listFormat prints, for each package go test builds, its import path, the
// package whose test it is compiled for (a variant) and its in-package
// test files.
const listFormat = `{{.ImportPath}}|{{.ForTest}}|{{join .TestGoFiles " "}}`

// recompiledHeavy reads go list -test -deps output in listFormat and
// returns one line per heavy package compiled as a variant of another
// package's test, naming that package and its in-package test files.
func recompiledHeavy(listing string) []string {
	inPackage := map[string]string{} // P -> its in-package test files
	type variant struct{ pkg, forTest string }
	var variants []variant
	sc := bufio.NewScanner(strings.NewReader(listing))
	for sc.Scan() {
		importPath, rest, ok := strings.Cut(sc.Text(), "|")
		if !ok {
			continue
		}
		forTest, testFiles, _ := strings.Cut(rest, "|")
		pkg, _, _ := strings.Cut(importPath, " [")
		if forTest == "" {
			continue
		}
		if pkg == forTest {
			inPackage[forTest] = testFiles
			continue
		}
		variants = append(variants, variant{pkg, forTest})
	}
	var out []string
	for _, v := range variants {
		if slices.Contains(heavy, v.pkg) {
			out = append(out, fmt.Sprintf("%s is compiled again for the tests of %s: with in-package test files (%s), "+
				"every package between it and its external tests' imports is compiled again against its test build; "+
				"make them external tests (package %s_test), or move the tests that need the app into a test-only "+
				"package of their own (docs/testing.md, \"Packages compiled once\")",
				v.pkg, v.forTest, inPackage[v.forTest], filepath.Base(v.forTest)))
		}
	}
	slices.Sort(out)
	return out
}

// goCommand is the go command of the toolchain running the tests.
func goCommand() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if bin := filepath.Join(root, "bin", "go"); fileExists(bin) {
			return bin
		}
	}
	return "go"
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// No heavy package of the module is compiled twice by go test ./...: only
// as itself and, for its own tests, as its own test variant.
func TestNoHeavyPackageIsCompiledForAnotherPackagesTests(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(goCommand(), "list", "-test", "-deps", "-f", listFormat, module+"/...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(string(out), module+"/rest_test ["+module+"/rest.test]|"+module+"/rest|") {
		t.Fatalf("go list printed no external test package of rest: the listing is not what this test reads\n%.2000s", out)
	}
	for _, problem := range recompiledHeavy(string(out)) {
		t.Error(problem)
	}
}

// A heavy package compiled for another package's test is reported with
// that package and its in-package test files; a package's own variant and
// a light package's recompilation are not.
func TestRecompiledHeavyNamesThePackageAndItsInPackageTestFiles(t *testing.T) {
	t.Parallel()
	listing := strings.Join([]string{
		module + "/internal/platform/store||export_test.go",
		module + "/internal/platform/store [" + module + "/internal/platform/store.test]|" + module + "/internal/platform/store|export_test.go rowplan_hooks_test.go",
		module + "/models [" + module + "/internal/platform/store.test]|" + module + "/internal/platform/store|",
		module + "/internal/app [" + module + "/internal/platform/store.test]|" + module + "/internal/platform/store|",
		module + "/internal/platform/store_test [" + module + "/internal/platform/store.test]|" + module + "/internal/platform/store|",
		module + "/rest [" + module + "/rest.test]|" + module + "/rest|decode_fuzz_test.go",
		module + "/internal/app|" + "|",
	}, "\n")
	got := recompiledHeavy(listing)
	if len(got) != 1 {
		t.Fatalf("got %d problems, want 1: %q", len(got), got)
	}
	for _, want := range []string{module + "/internal/app is compiled again", "tests of " + module + "/internal/platform/store",
		"files (export_test.go rowplan_hooks_test.go)", "package store_test"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("the problem does not say %q: %s", want, got[0])
		}
	}
}
