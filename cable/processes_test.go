package cable_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Two server processes on one database (each its own pool and listeners):
// an event committed through either reaches a session held by the other;
// a session held by one holds the endpoints back for events written
// through the other; and a session resumes on the other process.
func TestListenSessionsAcrossProcesses(t *testing.T) {
	t.Parallel()
	one := testenv.New(t)
	two := testenv.Open(t, one.URL)
	key := one.Keys.Sandbox.Secret
	skOne, skTwo := one.Client(key), two.Client(key)
	url, _ := receiver(t)
	ep := skOne.CreateWebhookEndpoint(testenv.WebhookEndpoint(url, "customer.created"))

	c1 := one.DialCable(key)
	id := testenv.ListenIdentifier([]string{"customer.created"}, true, "")
	s := listen(t, c1, id, 0)

	cust := skTwo.CreateCustomer(testenv.Customer())
	e := nextEvent(t, c1, id, s.Secret)
	require.Equal(t, cust.ID.String(), e.Object["id"], "written through process two, sent by process one")
	c1.Ack(id, e.ID, 200, "", 1)
	ev := eventsSince(t, skTwo, "")[0]["id"].(string)
	require.Equal(t, "skipped", deliveryTo(t, skTwo, ep.ID.String(), ev)["status"])
	require.Empty(t, barrier(t, c1, 1))
	c1.Close()

	missed := skOne.CreateCustomer(testenv.Customer())
	c2 := two.DialCable(key)
	resumeID := testenv.ListenIdentifier([]string{"customer.created"}, true, s.Token)
	r := listen(t, c2, resumeID, one.Clock.Now().UnixMilli())
	require.True(t, r.Replayed, "resumed on the other process")
	require.Equal(t, s.Secret, r.Secret)
	e = nextEvent(t, c2, resumeID, s.Secret)
	require.Equal(t, missed.ID.String(), e.Object["id"])
	c2.Ack(resumeID, e.ID, 200, "", 1)
	require.Empty(t, barrier(t, c2, 1))
}
