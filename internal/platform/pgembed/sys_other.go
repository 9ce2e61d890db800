//go:build !linux

package pgembed

import "syscall"

// setParentDeathSignal is a no-op where PR_SET_PDEATHSIG does not exist; the
// server may then outlive a crashed parent, and the next Start recovers.
func setParentDeathSignal(*syscall.SysProcAttr) {}

func isTmpfsWithFree(string, uint64) bool { return false }

func processIsPostgres(int) (is, known bool) { return false, false }
