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
