package childproc

import (
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStartReportsTheChildsExit(t *testing.T) {
	t.Parallel()
	p, err := Start(exec.Command("sh", "-c", "exit 3"))
	require.NoError(t, err)
	var exit *exec.ExitError
	require.ErrorAs(t, p.Wait(), &exit)
	require.Equal(t, 3, exit.ExitCode())
	require.True(t, p.Exited())
	<-p.Done()
}

func TestStartFailsForAMissingBinary(t *testing.T) {
	t.Parallel()
	_, err := Start(exec.Command("/nonexistent/binary"))
	require.Error(t, err)
}

func TestWaitOrKillKillsTheChildWhenTheContextEnds(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("cat") // runs until its input ends, which it never does
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	defer func() { _ = stdin.Close() }()
	p, err := Start(cmd)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, p.WaitOrKill(ctx), context.Canceled)
	require.True(t, p.Exited())
}

func TestWaitOrKillReturnsTheChildsResult(t *testing.T) {
	t.Parallel()
	p, err := Start(exec.Command("true"))
	require.NoError(t, err)
	require.NoError(t, p.WaitOrKill(context.Background()))
}
