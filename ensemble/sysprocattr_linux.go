package ensemble

import "syscall"

// sysProcAttr puts each server in its own process group, so a terminal's
// Ctrl-C reaches only the Go process, and, unless detached, has the kernel
// SIGKILL it when its parent dies: a test binary killed by a timeout must
// not leave JVMs behind.
func sysProcAttr(detached bool) *syscall.SysProcAttr {
	if detached {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
