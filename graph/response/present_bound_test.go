package response_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/graph/response"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

func TestBoundedCutsOnARuneBoundary(t *testing.T) {
	t.Parallel()
	require.Equal(t, "short", response.Bounded("short", 10))
	s := response.Bounded(strings.Repeat("é", 100), 11)
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
	got := p.Present(ctx, e)
	require.LessOrEqual(t, len(got.Message), response.MaxEchoMessage)
	require.LessOrEqual(t, len(got.Extensions["param"].(string)), response.MaxEchoName)
	errs := got.Extensions["errors"].(map[string][]string)
	require.LessOrEqual(t, len(errs), response.MaxFieldProblems)
	for k := range errs {
		require.LessOrEqual(t, len(k), response.MaxEchoName)
	}

	// Paths: the client's names (aliases) are cut; the input is not modified.
	path := ast.Path{ast.PathName(long), ast.PathIndex(3)}
	got = p.Present(ctx, gqlerror.WrapPath(path, apierr.Internal(errors.New("cause"))))
	require.LessOrEqual(t, len(got.Path[0].(ast.PathName)), response.MaxEchoName)
	require.Equal(t, ast.PathIndex(3), got.Path[1])
	require.Len(t, string(path[0].(ast.PathName)), 100_000)
}
