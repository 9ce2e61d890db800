package areas_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/events"
	_ "github.com/frame-oss/payments-server/resolvers/areas" // links every area, and so every declaration
)

var update = flag.Bool("update", false, "rewrite docs/webhooks.md's event catalogue from the declarations")

const (
	webhooksDoc    = "../../docs/webhooks.md"
	catalogueBegin = "<!-- event catalogue: generated from the declarations, see above -->\n"
	catalogueEnd   = "<!-- end of the event catalogue -->\n"
)

// The event catalogue of docs/webhooks.md is the declared event types, each
// with what triggers it. After declaring a type, regenerate it:
//
//	go test ./resolvers/areas -run TestWebhooksDocListsTheDeclaredEventTypes -update
func TestWebhooksDocListsTheDeclaredEventTypes(t *testing.T) {
	raw, err := os.ReadFile(webhooksDoc)
	require.NoError(t, err)
	doc := string(raw)
	begin, end := strings.Index(doc, catalogueBegin), strings.Index(doc, catalogueEnd)
	require.True(t, begin >= 0 && end > begin, "docs/webhooks.md marks its event catalogue with %q and %q", catalogueBegin, catalogueEnd)
	begin += len(catalogueBegin)

	want := catalogueTable()
	if *update {
		require.NoError(t, os.WriteFile(webhooksDoc, []byte(doc[:begin]+want+doc[end:]), 0o644))
		return
	}
	require.Equal(t, want, doc[begin:end],
		"docs/webhooks.md's event catalogue differs from the declarations; regenerate it with -update")
}

// catalogueTable is the Markdown table of every declared type, by name.
func catalogueTable() string {
	var b strings.Builder
	b.WriteString("| type | emitted when |\n|---|---|\n")
	for _, d := range events.Declarations() {
		b.WriteString("| `" + d.Name() + "` | " + d.Trigger + " |\n")
	}
	return b.String()
}
