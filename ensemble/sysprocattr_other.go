//go:build unix && !linux

package ensemble

import "syscall"

// sysProcAttr puts each server in its own process group or session. Without
// Linux's parent-death signal, servers of a crashed test binary survive it:
// Stop is the only cleanup on these systems.
func sysProcAttr(detached bool) *syscall.SysProcAttr {
	if detached {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true}
}
