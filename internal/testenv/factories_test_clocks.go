package testenv

import (
	"net/http"
	"time"

	"github.com/frame-oss/payments-server/models"
)

// TestClockPath is where test clocks live (a test helper of the sandbox).
const TestClockPath = "/v1/test_helpers/test_clocks"

// TestClockSpec describes a test clock: a sandbox time of its own that the
// objects bound to it (customers and their subscriptions and invoices)
// read instead of the server's clock, advanced only on request.
type TestClockSpec struct {
	FrozenTime time.Time
	Name       string
}

// TestClock is a clock named "run" frozen at at.
func TestClock(at time.Time) TestClockSpec {
	return TestClockSpec{FrozenTime: at, Name: "run"}
}

// RESTBody renders s as a POST /v1/test_helpers/test_clocks body.
func (s TestClockSpec) RESTBody() map[string]any {
	out := fields{"name": s.Name}.set()
	out["frozen_time"] = s.FrozenTime.Unix()
	return out
}

// CreateTestClock creates spec's clock over REST; anything but 201 fails
// the test.
func (c *Client) CreateTestClock(spec TestClockSpec) *models.TestClock {
	c.env.T.Helper()
	return create[models.TestClock](c, "test clock", TestClockPath, spec.RESTBody())
}

// AdvanceTestClock moves clockID to to, running what falls due on the
// way, and returns the clock with its receipt; anything but 200 fails the
// test.
func (c *Client) AdvanceTestClock(clockID string, to time.Time) *models.TestClock {
	c.env.T.Helper()
	return post[models.TestClock](c, "advance test clock", TestClockPath+"/"+clockID+"/advance",
		map[string]any{"frozen_time": to.Unix()}, http.StatusOK)
}

// CreateClockedCustomer creates the complete Customer bound to clockID,
// so it is created at the clock's time and its billing follows the clock;
// anything but 201 fails the test.
func (c *Client) CreateClockedCustomer(clockID string) *models.Customer {
	c.env.T.Helper()
	body := Customer().RESTBody()
	body["test_clock"] = clockID
	return create[models.Customer](c, "clocked customer", "/v1/customers", body)
}
