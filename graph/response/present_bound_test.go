package graph

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

func TestBoundedCutsOnARuneBoundary(t *testing.T) {
	t.Parallel()
	require.Equal(t, "short", bounded("short", 10))
	s := bounded(strings.Repeat("é", 100), 11)
	require.True(t, utf8.ValidString(s), s)
	require.LessOrEqual(t, len(s), 11)
	require.True(t, strings.HasSuffix(s, "…"))
}

// An API error quoting input (a long id, metadata keys by the thousand) is
// bounded in every part.
func TestPresenterBoundsWhatErrorsEcho(t *testing.T) {
	t.Parallel()
	p, _ := testPresenter()
	long := strings.Repeat("k", 100_000)
	fields := map[string][]string{}
	for i := range 5000 {
		fields[fmt.Sprintf("metadata.%s%d", long[:1000], i)] = []string{"key must be at most 40 characters"}
	}
	e := &apierr.Error{Status: http.StatusUnprocessableEntity, Code: apierr.CodeValidation,
		Message: "No such account: '" + long + "'", Param: long, Fields: fields}
	ctx := context.Background()
	got := p.present(ctx, e)
	require.LessOrEqual(t, len(got.Message), maxEchoMessage)
	require.LessOrEqual(t, len(got.Extensions["param"].(string)), maxEchoName)
	errs := got.Extensions["errors"].(map[string][]string)
	require.LessOrEqual(t, len(errs), maxFieldProblems)
	for k := range errs {
		require.LessOrEqual(t, len(k), maxEchoName)
	}

	// Paths: the client's names (aliases) are cut; the input is not modified.
	path := ast.Path{ast.PathName(long), ast.PathIndex(3)}
	require.LessOrEqual(t, len(boundPath(path)[0].(ast.PathName)), maxEchoName)
	require.Equal(t, ast.PathIndex(3), boundPath(path)[1])
	require.Len(t, string(path[0].(ast.PathName)), 100_000)
}
