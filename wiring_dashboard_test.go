package main

import (
	"flag"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// serve's --dashboard flag: on unless DASHBOARD or the flag turns it off;
// off, /dashboard and its assets answer 404.
func TestDashboardFlag(t *testing.T) {
	t.Parallel()
	parse := func(env map[string]string, args ...string) (dashboardFlag, error) {
		var d dashboardFlag
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if err := d.register(fs, func(k string) string { return env[k] }); err != nil {
			return d, err
		}
		return d, fs.Parse(args)
	}
	d, err := parse(nil)
	require.NoError(t, err)
	require.True(t, d.on, "on by default")
	d, err = parse(map[string]string{"DASHBOARD": "false"})
	require.NoError(t, err)
	require.False(t, d.on)
	d, err = parse(map[string]string{"DASHBOARD": "false"}, "--dashboard")
	require.NoError(t, err)
	require.True(t, d.on, "the flag wins over the environment")
	d, err = parse(nil, "--dashboard=false")
	require.NoError(t, err)
	require.False(t, d.on)
	_, err = parse(map[string]string{"DASHBOARD": "maybe"})
	require.ErrorContains(t, err, "DASHBOARD")

	for on, want := range map[bool]int{true: http.StatusOK, false: http.StatusNotFound} {
		env := testenv.New(t, func(o *app.Options) { dashboardFlag{on: on}.apply(o) })
		for _, path := range []string{"/dashboard", "/dashboard/dashboard.js"} {
			resp, err := http.Get(env.Server.URL + path)
			require.NoError(t, err)
			_ = resp.Body.Close()
			require.Equal(t, want, resp.StatusCode, "dashboard on=%v: %s", on, path)
		}
	}
}
