package main

import (
	"fmt"
	"os"
	"strings"
)

// The table lives in docs/performance.md between these markers; the rest of
// the file is left alone.
const (
	beginMarker = "<!-- loadbench:begin -->"
	endMarker   = "<!-- loadbench:end -->"
)

// writeDocs replaces what is between the markers in path by content.
func writeDocs(path, content string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	doc, err := replaceBetweenMarkers(string(b), content)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}

// replaceBetweenMarkers puts content between the markers of doc, or, when
// doc has none, appends a section holding them.
func replaceBetweenMarkers(doc, content string) (string, error) {
	block := beginMarker + "\n" + strings.TrimSpace(content) + "\n" + endMarker
	i := strings.Index(doc, beginMarker)
	j := strings.Index(doc, endMarker)
	switch {
	case i < 0 && j < 0:
		return strings.TrimRight(doc, "\n") + "\n\n## Load benchmark (`make loadbench`)\n\n" + block + "\n", nil
	case i < 0 || j < i:
		return "", fmt.Errorf("markers %s and %s are missing or out of order", beginMarker, endMarker)
	}
	return doc[:i] + block + doc[j+len(endMarker):], nil
}
