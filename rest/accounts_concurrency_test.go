package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Holds, updates and a disable racing on one account: the row lock orders
// them, each sees the state the previous one committed, and the events tell
// that order truthfully (timestamps never go backwards; nothing follows the
// disable; every restriction event shows the hold it claims).
func TestConcurrentHoldsAndUpdatesStayConsistent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	path := "/v1/accounts/" + id(a)
	f.env.Clock.SetStep(time.Second) // every reading a distinct Unix second

	var wg sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	disables := 0
	for i := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var r interface{ JSON() map[string]any }
			switch i % 4 {
			case 0:
				r = f.sk.Post(path+"/restrict", nil)
			case 1:
				r = f.sk.Post(path+"/unrestrict", nil)
			case 2:
				r = f.sk.Patch(path, map[string]any{"metadata": map[string]any{"n": fmt.Sprint(i)}})
			case 3:
				if i == 23 {
					resp := f.sk.Delete(path)
					require.Equal(t, http.StatusOK, resp.Status)
					mu.Lock()
					disables++
					mu.Unlock()
					return
				}
				r = f.sk.Patch(path, map[string]any{"metadata": map[string]any{"m": fmt.Sprint(i)}})
			}
			body := r.JSON()
			if _, isErr := body["code"]; isErr {
				require.Equal(t, "invalid_state", body["code"], "only the disable may refuse the others")
			}
		}()
	}
	close(start)
	wg.Wait()
	require.Equal(t, 1, disables)

	final := f.sk.Get(path).JSON()
	require.Equal(t, "disabled", final["status"])

	events := listEvents(t, f.sk, "")
	var ofAccount []event
	for _, e := range events {
		if e.object()["id"] == id(a) {
			ofAccount = append(ofAccount, e)
		}
	}
	require.Equal(t, 1, countType(ofAccount, "account.disabled"))
	require.Equal(t, "account.disabled", ofAccount[len(ofAccount)-1].Type, "nothing happens to a disabled account")
	// Listed in commit order, each event's previous_attributes are exactly
	// what the event before it showed: the chain breaks if a request that
	// waited for the lock stamped a time before the one it waited for.
	var before map[string]any
	for _, e := range ofAccount {
		for k, v := range e.previous() {
			require.Equal(t, before[k], v, "%s: previous %s is what the event before showed", e.Type, k)
		}
		before = e.object()
		restrictedBy := e.object()["restricted_by"].([]any)
		if e.Type == "account.restricted" {
			require.True(t, slices.Contains(restrictedBy, any("merchant")))
			require.Equal(t, "restricted", e.object()["status"])
		}
	}
}
