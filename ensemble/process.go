package ensemble

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"
)

// process is one running JVM.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once the process has exited and been reaped
	err  error         // the result of Wait; read only after done is closed
}

func (p *process) pid() int { return p.cmd.Process.Pid }

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// killWait is how long a SIGKILLed process may take to be reaped before we
// give up on it; SIGKILL cannot be caught, so only a kernel stuck in I/O
// would take this long.
const killWait = 10 * time.Second

// kill sends SIGKILL (which also ends a SIGSTOPped process) and waits until
// the process has been reaped, so that its ports and files are free when
// kill returns.
func (p *process) kill() error {
	if p.exited() {
		return nil
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil && !p.exited() {
		return fmt.Errorf("SIGKILL pid %d: %w", p.pid(), err)
	}
	select {
	case <-p.done:
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("pid %d still alive %v after SIGKILL", p.pid(), killWait)
	}
}

// spawner starts processes from one OS thread that lives as long as the
// ensemble. Linux delivers the parent-death signal when the thread that
// forked a child exits, not when the process does; a goroutine that locks
// its thread and returns destroys that thread, so starting servers from an
// arbitrary thread could kill them at a random moment. Locking one thread
// for the spawner's lifetime rules that out.
type spawner struct {
	reqs chan spawnReq
	quit chan struct{}
	done chan struct{}
}

type spawnReq struct {
	cmd  *exec.Cmd
	errc chan error
}

func newSpawner() *spawner {
	s := &spawner{reqs: make(chan spawnReq), quit: make(chan struct{}), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *spawner) loop() {
	defer close(s.done)
	// Never unlocked: when loop returns, the thread is destroyed, which
	// kills any child still alive as a last resort.
	runtime.LockOSThread()
	for {
		select {
		case r := <-s.reqs:
			r.errc <- r.cmd.Start()
		case <-s.quit:
			return
		}
	}
}

func (s *spawner) start(cmd *exec.Cmd) error {
	r := spawnReq{cmd: cmd, errc: make(chan error, 1)}
	select {
	case s.reqs <- r:
		return <-r.errc
	case <-s.quit:
		return ErrStopped
	}
}

func (s *spawner) stop() {
	close(s.quit)
	<-s.done
}

// spawn starts server s, appending its output to its log file. The log
// file is handed to the JVM as its stdout and stderr, so no goroutine copies
// output and a detached server keeps logging after we exit.
func (e *Ensemble) spawn(s *server) (*process, error) {
	logf, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	fmt.Fprintf(logf, "=== ensemble: starting server %d (myid %d, client port %d) at %s\n",
		s.index, s.id, s.ports.client, time.Now().Format(time.RFC3339Nano))
	args := append([]string{}, e.cfg.JVMFlags...)
	args = append(args, "-cp", joinClassPath(e.cfg.ClassPath),
		"org.apache.zookeeper.server.quorum.QuorumPeerMain", s.cfgPath)
	cmd := exec.Command(e.java, args...)
	cmd.Dir = s.dir
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = sysProcAttr(e.cfg.Detached)
	if err := e.spawner.start(cmd); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

func joinClassPath(cp []string) string {
	var b bytes.Buffer
	for i, p := range cp {
		if i > 0 {
			b.WriteByte(os.PathListSeparator)
		}
		b.WriteString(p)
	}
	return b.String()
}
