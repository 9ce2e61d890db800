//go:build linux

package main

import "syscall"

// setParentDeathSignal asks the kernel to send SIGTERM (a clean shutdown of
// the server and its database) to the child when this program dies.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
