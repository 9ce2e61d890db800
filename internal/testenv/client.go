package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// ObserveResponse, when set, sees every response a Client receives beside
// its request, from any test goroutine: a package's TestMain sets it to
// check each response against a contract (rest/contract_test.go).
var ObserveResponse func(req *http.Request, resp *Response)

// Client calls the test server with one credential.
type Client struct {
	env *Env
	key string
}

// Client returns a client sending key as its Bearer credential ("" sends
// none).
func (e *Env) Client(key string) *Client { return &Client{env: e, key: key} }

// Response is a received response.
type Response struct {
	Status     int
	Header     http.Header
	Body       []byte
	Statements int
	t          interface {
		Helper()
		Fatalf(string, ...any)
	}
}

// JSON decodes the body as an object.
func (r *Response) JSON() map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		r.t.Fatalf("testenv: response is not a JSON object (%d): %s", r.Status, r.Body)
	}
	return m
}

// Array decodes the body as an array of objects.
func (r *Response) Array() []map[string]any {
	r.t.Helper()
	var a []map[string]any
	if err := json.Unmarshal(r.Body, &a); err != nil {
		r.t.Fatalf("testenv: response is not a JSON array (%d): %s", r.Status, r.Body)
	}
	return a
}

// Decode decodes the body into v.
func (r *Response) Decode(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("testenv: decode response (%d): %v: %s", r.Status, err, r.Body)
	}
}

// Get sends a GET.
func (c *Client) Get(path string) *Response { return c.Do(http.MethodGet, path, nil, nil) }

// Post sends a POST with body as JSON (nil sends no body).
func (c *Client) Post(path string, body any) *Response { return c.Do(http.MethodPost, path, body, nil) }

// Patch sends a PATCH with body as JSON.
func (c *Client) Patch(path string, body any) *Response {
	return c.Do(http.MethodPatch, path, body, nil)
}

// Delete sends a DELETE.
func (c *Client) Delete(path string) *Response { return c.Do(http.MethodDelete, path, nil, nil) }

// Do sends a request. body may be nil, a string or []byte (sent as is), an
// io.Reader (streamed), or anything else (sent as JSON). The body is sent
// as application/json unless header names another Content-Type.
func (c *Client) Do(method, path string, body any, header http.Header) *Response {
	t := c.env.T
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	case io.Reader: // streamed as is (no Content-Length)
		rd = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("testenv: encode body: %v", err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.env.Server.URL+path, rd)
	if err != nil {
		t.Fatalf("testenv: new request: %v", err)
	}
	if rd != nil && header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := c.env.Server.Client().Do(req)
	if err != nil {
		t.Fatalf("testenv: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("testenv: read body: %v", err)
	}
	n, _ := strconv.Atoi(resp.Header.Get(httpx.StatementCountHeader))
	got := &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw, Statements: n, t: t}
	if ObserveResponse != nil {
		ObserveResponse(req, got)
	}
	return got
}
