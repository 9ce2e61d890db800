package rest_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// createAccounts makes n minimal accounts, a few at a time.
func createAccounts(t *testing.T, c *testenv.Client, n int) {
	t.Helper()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			statuses[i] = c.Post("/v1/accounts", map[string]any{"type": "individual", "profile": map[string]any{
				"individual": map[string]any{"name": map[string]any{"first_name": "P", "last_name": "Q"}}}}).Status
		}()
	}
	wg.Wait()
	for _, s := range statuses {
		require.Equal(t, http.StatusCreated, s)
	}
}

type page struct {
	Meta struct {
		Page    int    `json:"page"`
		URL     string `json:"url"`
		HasMore bool   `json:"has_more"`
		Prev    *int   `json:"prev"`
		Next    *int   `json:"next"`
	} `json:"meta"`
	Data []map[string]any `json:"data"`
}

func getPage(t *testing.T, c *testenv.Client, path string) page {
	t.Helper()
	r := c.Get(path)
	require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
	require.Equal(t, sorted("meta", "data"), keys(r.JSON()))
	require.Equal(t, sorted("page", "url", "has_more", "prev", "next"), keys(r.JSON()["meta"].(map[string]any)))
	var p page
	r.Decode(&p)
	require.NotNil(t, p.Data, "data is an array, never null")
	return p
}

func intp(n int) *int { return &n }

func TestPaginationPagesAndBoundaries(t *testing.T) {
	t.Parallel()
	f := setup(t)
	createAccounts(t, f.sk, 10)

	// Exactly one full page: has_more is false, not a guess.
	p := getPage(t, f.sk, "/v1/accounts")
	require.Len(t, p.Data, 10, "per_page defaults to 10")
	require.Equal(t, 1, p.Meta.Page)
	require.Equal(t, "/v1/accounts", p.Meta.URL)
	require.False(t, p.Meta.HasMore)
	require.Nil(t, p.Meta.Prev)
	require.Nil(t, p.Meta.Next)

	f.sk.CreateAccount(testenv.Individual())
	all := getPage(t, f.sk, "/v1/accounts?per_page=100").Data
	require.Len(t, all, 11)
	// Newest first. Ids are UUIDv7 (millisecond time, then random bits),
	// so two accounts created in one millisecond need not sort by id in
	// creation order; the list sorts by creation time, then id.
	for i := 1; i < len(all); i++ {
		require.GreaterOrEqual(t, all[i-1]["created"], all[i]["created"], "newest first")
	}
	require.Equal(t, "Ada", all[0]["profile"].(map[string]any)["individual"].(map[string]any)["name"].(map[string]any)["first_name"])

	p1 := getPage(t, f.sk, "/v1/accounts")
	require.Len(t, p1.Data, 10)
	require.True(t, p1.Meta.HasMore)
	require.Nil(t, p1.Meta.Prev)
	require.Equal(t, intp(2), p1.Meta.Next)
	p2 := getPage(t, f.sk, "/v1/accounts?page=2")
	require.Len(t, p2.Data, 1)
	require.Equal(t, 2, p2.Meta.Page)
	require.False(t, p2.Meta.HasMore)
	require.Equal(t, intp(1), p2.Meta.Prev)
	require.Nil(t, p2.Meta.Next)
	require.Equal(t, all, append(p1.Data, p2.Data...), "pages partition the list in order")

	// A middle page links both ways.
	p = getPage(t, f.sk, "/v1/accounts?per_page=3&page=2")
	require.Equal(t, all[3:6], p.Data)
	require.Equal(t, intp(1), p.Meta.Prev)
	require.Equal(t, intp(3), p.Meta.Next)
	require.True(t, p.Meta.HasMore)
	p = getPage(t, f.sk, "/v1/accounts?per_page=11")
	require.Len(t, p.Data, 11)
	require.False(t, p.Meta.HasMore)

	// Past the end: an empty array, not an error.
	p = getPage(t, f.sk, "/v1/accounts?page=99")
	require.Empty(t, p.Data)
	require.Equal(t, 99, p.Meta.Page)
	require.False(t, p.Meta.HasMore)
	require.Nil(t, p.Meta.Next)
	require.Equal(t, intp(98), p.Meta.Prev)
	p = getPage(t, f.sk, "/v1/accounts?page=9223372036854775807")
	require.Empty(t, p.Data, "page has no upper bound")

	// The same meta on search and events, with their own url.
	s := getPage(t, f.sk, "/v1/accounts/search?name=p&per_page=4&page=3")
	require.Equal(t, "/v1/accounts/search", s.Meta.URL)
	require.Len(t, s.Data, 2)
	require.False(t, s.Meta.HasMore)
	require.Equal(t, intp(2), s.Meta.Prev)
	e := getPage(t, f.sk, "/v1/events?per_page=5&page=2")
	require.Equal(t, "/v1/events", e.Meta.URL)
	require.Len(t, e.Data, 5)
	require.True(t, e.Meta.HasMore)
	require.Equal(t, intp(3), e.Meta.Next)
	e = getPage(t, f.sk, "/v1/events?per_page=5&page=3")
	require.Len(t, e.Data, 1)
	require.False(t, e.Meta.HasMore)
}

func TestPaginationClampsPerPage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	createAccounts(t, f.sk, 101)

	p := getPage(t, f.sk, "/v1/accounts?per_page=101")
	require.Len(t, p.Data, 100, "per_page above 100 is clamped, not refused")
	require.True(t, p.Meta.HasMore)
	require.Equal(t, intp(2), p.Meta.Next)
	p = getPage(t, f.sk, "/v1/accounts?per_page=100000&page=2")
	require.Len(t, p.Data, 1)
	require.False(t, p.Meta.HasMore)
	p = getPage(t, f.sk, "/v1/accounts?per_page=100")
	require.Len(t, p.Data, 100)
	require.True(t, p.Meta.HasMore)

	e := getPage(t, f.sk, "/v1/events?per_page=101")
	require.Len(t, e.Data, 100)
	require.True(t, e.Meta.HasMore)
}

func TestPaginationRefusesInvalidParameters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.CreateAccount(testenv.Individual())
	for _, base := range []string{"/v1/accounts", "/v1/accounts/search", "/v1/events"} {
		for _, q := range []string{"page=0", "page=-1", "page=x", "page=1.5", "per_page=0", "per_page=-1", "per_page=x", "per_page=1e2"} {
			param := "page"
			if strings.HasPrefix(q, "per_page") {
				param = "per_page"
			}
			r := f.sk.Get(base + "?" + q)
			e := requireError(t, r, http.StatusBadRequest, "parameter_invalid", param)
			errs := errorDetails(e)["errors"].(map[string]any)
			require.Equal(t, []string{param}, keys(errs), "%s?%s", base, q)
			require.Equal(t, []any{"must be an integer of at least 1"}, errs[param])
		}
		// Every malformed parameter is reported at once.
		e := requireError(t, f.sk.Get(base+"?page=0&per_page=x"), http.StatusBadRequest, "parameter_invalid", "")
		require.Equal(t, []string{"page", "per_page"}, keys(errorDetails(e)["errors"].(map[string]any)))
	}
	// An empty value means the default.
	p := getPage(t, f.sk, "/v1/accounts?page=&per_page=")
	require.Equal(t, 1, p.Meta.Page)
	require.Len(t, p.Data, 1)
}
