package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// apiClient makes single requests to the server (seeding, warm-up and the
// request whose statements are captured); the load itself is wrk's.
type apiClient struct {
	baseURL string
	key     string
	http    *http.Client
}

func newAPIClient(baseURL, key string) *apiClient {
	return &apiClient{baseURL: baseURL, key: key, http: &http.Client{Timeout: 30 * time.Second}}
}

// do sends one request and returns the status and body.
func (c *apiClient) do(ctx context.Context, method, path, body string) (int, []byte, error) {
	return c.doAs(ctx, c.key, method, path, body)
}

// doAs is do with another API key.
func (c *apiClient) doAs(ctx context.Context, key, method, path, body string) (int, []byte, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.baseURL+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// send makes one request of a shape and validates the answer. For a fresh
// shape (fresh.go) it sends a new reference, which the answer must carry,
// and returns it.
func (c *apiClient) send(ctx context.Context, s shape) (ref string, err error) {
	body := s.body
	if s.fresh {
		ref = apiReference()
		body = freshBody(body, ref)
	}
	key := c.key
	if s.key != "" {
		key = s.key
	}
	status, resp, err := c.doAs(ctx, key, s.method, s.path, body)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", s.method, s.path, err)
	}
	if status != s.want {
		return "", fmt.Errorf("%s %s: status %d, want %d: %.500s", s.method, s.path, status, s.want, resp)
	}
	if s.check != nil {
		if err := s.check(resp); err != nil {
			return "", fmt.Errorf("%s %s: %w", s.method, s.path, err)
		}
	}
	if s.fresh {
		var v struct {
			Reference string `json:"reference"`
		}
		if err := json.Unmarshal(resp, &v); err != nil || v.Reference != ref {
			return "", fmt.Errorf("%s %s: sent the reference %q, answered %.500s", s.method, s.path, ref, resp)
		}
	}
	return ref, nil
}

// seed creates n accounts with three capabilities each and returns their
// ids in creation order.
func (c *apiClient) seed(ctx context.Context, n int) ([]string, error) {
	ids := make([]string, 0, n)
	for i := range n {
		body := accountBody(fmt.Sprintf("seed%d@example.com", i), "kyc", "phone_verification", "card_verification")
		status, resp, err := c.do(ctx, http.MethodPost, "/v1/accounts", body)
		if err != nil {
			return nil, fmt.Errorf("seed account %d: %w", i, err)
		}
		if status != http.StatusCreated {
			return nil, fmt.Errorf("seed account %d: status %d: %.500s", i, status, resp)
		}
		var acct struct {
			ID           string            `json:"id"`
			Capabilities []json.RawMessage `json:"capabilities"`
		}
		if err := json.Unmarshal(resp, &acct); err != nil {
			return nil, fmt.Errorf("seed account %d: %w", i, err)
		}
		if acct.ID == "" || len(acct.Capabilities) != 3 {
			return nil, fmt.Errorf("seed account %d: want an id and 3 capabilities: %.500s", i, resp)
		}
		ids = append(ids, acct.ID)
	}
	return ids, nil
}
