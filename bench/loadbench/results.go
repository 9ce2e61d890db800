package main

import (
	"os"
	"path/filepath"
)

// results is the folder the run leaves its pgbench scripts, wrk scripts,
// raw wrk and pgbench outputs and table in (bench/results/loadbench by
// default, ignored by git), for a look at what was measured.
type results struct{ dir string }

// newResults prepares dir (relative to root), or, when dir is empty, uses
// fallback (the run's temporary folder).
func newResults(root, dir, fallback string) (results, error) {
	if dir == "" {
		return results{dir: fallback}, nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return results{}, err
	}
	return results{dir: dir}, nil
}

// write stores a file and returns its path.
func (r results) write(name, content string) (string, error) {
	path := filepath.Join(r.dir, name)
	return path, os.WriteFile(path, []byte(content), 0o644)
}
