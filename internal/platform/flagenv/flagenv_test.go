package flagenv_test

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/flagenv"
)

func TestEnvironmentDefaultsAndFlagsWin(t *testing.T) {
	env := map[string]string{"N": "7", "D": "2s", "B": "false", "F": "1.5"}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	s := flagenv.New(fs, func(k string) string { return env[k] })
	n, d, b, f := 1, time.Second, true, 0.5
	s.Int(&n, "n", "N", "")
	s.Duration(&d, "d", "D", "")
	s.Bool(&b, "b", "B", "")
	s.Float(&f, "f", "F", "")
	require.NoError(t, s.Err())
	require.Equal(t, 7, n)
	require.Equal(t, 2*time.Second, d)
	require.False(t, b)
	require.Equal(t, 1.5, f)
	require.NoError(t, fs.Parse([]string{"-n", "9"}))
	require.Equal(t, 9, n, "the flag wins over the environment")
}

func TestMalformedEnvironmentIsAnError(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s := flagenv.New(fs, func(k string) string { return map[string]string{"N": "seven", "D": "soon"}[k] })
	n, d := 1, time.Second
	s.Int(&n, "n", "N", "")
	s.Duration(&d, "d", "D", "")
	require.ErrorContains(t, s.Err(), "N:")
	require.ErrorContains(t, s.Err(), "D:")
	require.Equal(t, 1, n, "a malformed value leaves the default")
}

func TestDefaultReplacesZeroAndNegativeOnly(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{{0, time.Second}, {-5, time.Second}, {3, 3}} {
		got := c.in
		flagenv.Default(&got, time.Second)
		if got != c.want {
			t.Errorf("Default(%v, 1s) = %v, want %v", c.in, got, c.want)
		}
	}
	n := 7
	flagenv.Default(&n, 1)
	if n != 7 {
		t.Errorf("Default kept a positive int? got %d", n)
	}
}
