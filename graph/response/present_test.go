package response_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/graph/response"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

func testPresenter() (response.Presenter, *bytes.Buffer) {
	var logs bytes.Buffer
	return response.Presenter{
		Logger:    slog.New(slog.NewJSONHandler(&logs, nil)),
		RequestID: func(context.Context) string { return "req_test" },
	}, &logs
}

func TestPresenterRendersAPIErrors(t *testing.T) {
	t.Parallel()
	p, logs := testPresenter()
	path := ast.Path{ast.PathName("createAccount")}
	v := apierr.Validation(map[string][]string{"metadata.k": {"must be at most 100 characters"}}, nil)
	got := p.Present(context.Background(), gqlerror.WrapPath(path, fmt.Errorf("wrapped: %w", v)))
	require.Equal(t, v.Message, got.Message)
	require.Equal(t, path, got.Path)
	require.Equal(t, map[string]any{"code": "validation_errors", "status": 422, "param": "metadata.k",
		"errors": map[string][]string{"metadata.k": {"must be at most 100 characters"}}, "request_id": "req_test"}, got.Extensions)

	rule := apierr.Rule("capability_not_provisionable", "Capability kyb requires the identity product", "capabilities",
		map[string]any{"capability": "kyb", "required_product": "identity"})
	got = p.Present(context.Background(), gqlerror.WrapPath(path, rule))
	require.Equal(t, map[string]any{"capability": "kyb", "required_product": "identity"}, got.Extensions["data"])
	require.Equal(t, "capabilities", got.Extensions["param"])

	conflict := apierr.Conflict("verification_in_progress", "A run is open", map[string]any{"id": "run_1"})
	got = p.Present(context.Background(), gqlerror.WrapPath(path, conflict))
	require.Equal(t, map[string]any{"id": "run_1"}, got.Extensions["details"])
	require.Equal(t, 409, got.Extensions["status"])
	require.Empty(t, logs.String(), "client errors are not logged as failures")
}

func TestPresenterHidesInternalErrors(t *testing.T) {
	t.Parallel()
	p, logs := testPresenter()
	cause := errors.New("pq: relation secret_table does not exist")
	got := p.Present(context.Background(), gqlerror.WrapPath(ast.Path{ast.PathName("accounts")}, cause))
	require.Equal(t, "internal_error", got.Extensions["code"])
	require.Equal(t, 500, got.Extensions["status"])
	require.Equal(t, "req_test", got.Extensions["request_id"])
	require.NotContains(t, got.Message, "secret_table")
	require.NotContains(t, fmt.Sprint(got.Extensions), "secret_table")
	require.Contains(t, logs.String(), "secret_table", "the cause is logged")
	require.Contains(t, logs.String(), "req_test")

	// A panic is an internal error too, logged with its stack.
	logs.Reset()
	err := p.RecoverPanic(context.Background(), "boom at secret place")
	got = p.Present(context.Background(), gqlerror.WrapPath(nil, err))
	require.Equal(t, "internal_error", got.Extensions["code"])
	require.NotContains(t, got.Message, "secret place")
	require.Contains(t, logs.String(), "secret place")
	require.Contains(t, logs.String(), "stack")
}

func TestPresenterPassesGraphQLErrorsThrough(t *testing.T) {
	t.Parallel()
	p, _ := testPresenter()
	in := gqlerror.Errorf("Cannot query field \"ssn\" on type \"IndividualProfile\".")
	in.Extensions = map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}
	got := p.Present(context.Background(), in)
	require.Equal(t, in.Message, got.Message)
	require.Equal(t, map[string]any{"code": "GRAPHQL_VALIDATION_FAILED", "request_id": "req_test"}, got.Extensions)
	require.Equal(t, map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}, in.Extensions, "the input is not modified")
}
