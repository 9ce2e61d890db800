package webhook

// Destinations is the operator's policy on where deliveries may go. It is
// applied to an endpoint's host at create and update, and to the address
// actually dialled at every delivery.
type Destinations struct {
	// SandboxLocal lets sandbox endpoints reach Local addresses, so a
	// developer can receive webhooks on their own machine. Production never
	// reaches them, and no mode reaches a Never address. The zero value
	// refuses: serve allows them only when it listens on loopback alone,
	// or when told to (docs/webhooks.md).
	SandboxLocal bool
}

// Allows reports whether a delivery in the mode may reach an address of
// reach r.
func (d Destinations) Allows(r Reach, livemode bool) bool {
	switch r {
	case Public:
		return true
	case Local:
		return !livemode && d.SandboxLocal
	}
	return false
}
