//go:build !linux

package main

import "syscall"

// setParentDeathSignal: no parent-death signal outside Linux; the server is
// stopped on exit and on Ctrl-C, not if this program is killed.
func setParentDeathSignal(*syscall.SysProcAttr) {}
