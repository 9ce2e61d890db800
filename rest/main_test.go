package rest_test

import (
	"net/http"
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// TestMain runs the package's tests with every response they receive
// checked against the OpenAPI document (contract_test.go), then fails the
// package listing each distinct violation once.
func TestMain(m *testing.M) {
	testenv.ObserveResponse = func(req *http.Request, resp *testenv.Response) {
		restContract.observe(req, resp.Status, resp.Body)
	}
	testenv.Main(m, restContract.report)
}
