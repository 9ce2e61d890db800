package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPgbenchP99(t *testing.T) {
	dir := t.TempDir()
	var a, b strings.Builder
	for i := 1; i <= 100; i++ {
		// client, transaction, latency in µs, script, epoch, µs
		fmt.Fprintf(&a, "0 %d %d 0 1795664196 1000\n", i, i*1000)
		fmt.Fprintf(&b, "1 %d %d 0 1795664196 1000\n", i, 500)
	}
	if err := os.WriteFile(filepath.Join(dir, "tx.123"), []byte(a.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tx.123.1"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// 200 runs: the 198th smallest is the 98th of the first file's.
	if got, err := pgbenchP99(dir); err != nil || got != 98*time.Millisecond {
		t.Fatalf("p99 %s, %v; want 98ms", got, err)
	}
}
