package ensemble

import (
	"bytes"
	"os"
	"strconv"
)

// isServerProcess reports whether pid is alive (not a zombie) and was
// started with cfgPath on its command line.
func isServerProcess(pid int, cfgPath string) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name, which may itself
	// contain ") ".
	if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' || stat[i+2] == 'X' {
		return false
	}
	cmdline, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return false
	}
	for _, arg := range bytes.Split(cmdline, []byte{0}) {
		if string(arg) == cfgPath {
			return true
		}
	}
	return false
}

// procState is the state letter of one /proc stat file ('T' stopped), or 0.
func procState(path string) byte {
	stat, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return 0
	}
	return stat[i+2]
}

// isStopped reports whether every thread of pid is stopped by a signal.
// kill(SIGSTOP) returns before the kernel has stopped every thread of a
// JVM; until then a server can still answer.
func isStopped(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, t := range tasks {
		if s := procState(dir + "/" + t.Name() + "/stat"); s != 'T' && s != 't' {
			return false
		}
	}
	return true
}
