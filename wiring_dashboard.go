package main

import (
	"flag"

	"github.com/frame-oss/payments-server/graph/dashboard"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

// dashboardFlag turns the reference dashboard at /dashboard on or off. It is
// on by default, like the playground: it serves only static files, answers
// sandbox secret keys only and reads through the public /graphql. Turn it
// off where nobody should browse the API from this server; /dashboard then
// answers 404.
type dashboardFlag struct{ on bool }

// register adds serve's --dashboard flag, defaulting to DASHBOARD when set,
// else on; a value that does not parse as a boolean is an error.
func (d *dashboardFlag) register(fs *flag.FlagSet, getenv func(string) string) error {
	d.on = true
	f := flagenv.New(fs, getenv)
	f.Bool(&d.on, "dashboard", "DASHBOARD", "serve the reference dashboard at /dashboard (sandbox keys only); default true")
	return f.Err()
}

// apply serves the dashboard when the flag is on.
func (d dashboardFlag) apply(o *app.Options) {
	o.Dashboard = nil
	if d.on {
		o.Dashboard = dashboard.Handler()
	}
}
