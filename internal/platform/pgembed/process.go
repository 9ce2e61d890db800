package pgembed

import "syscall"

// childSysProcAttr is the SysProcAttr for initdb and postgres, which are
// started by childproc.Start (so that the parent-death signal holds):
//   - Credential drops to the postgres user when we are root;
//   - Setpgid puts the child in its own process group, so a Ctrl-C in the
//     terminal reaches only us and we shut the server down in order (fast
//     shutdown via SIGINT in Stop) instead of it racing our own cleanup;
//   - the parent-death signal (Linux) kills it if we die (see childproc).
func childSysProcAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	setParentDeathSignal(a)
	return a
}
