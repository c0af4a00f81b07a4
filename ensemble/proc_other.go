//go:build unix && !linux

package ensemble

import "syscall"

// isServerProcess reports whether pid is alive. Without /proc it cannot
// tell a reused pid from the server.
func isServerProcess(pid int, cfgPath string) bool {
	return syscall.Kill(pid, 0) == nil
}

// isStopped cannot look without /proc: it trusts the signal.
func isStopped(pid int) bool { return true }
