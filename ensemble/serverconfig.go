package ensemble

import (
	"fmt"
	"strings"
)

// serverLines are the zoo.cfg lines of Config.ServerConfig for server i.
func (c Config) serverLines(i int) []string {
	if i < 0 || i >= len(c.ServerConfig) {
		return nil
	}
	return c.ServerConfig[i]
}

// validateServerConfig refuses a ServerConfig for more servers than the
// ensemble has, or a line that is not key=value.
func (c Config) validateServerConfig() error {
	if len(c.ServerConfig) > c.Servers {
		return fmt.Errorf("%w: ServerConfig has lines for %d servers, the ensemble has %d",
			ErrBadConfig, len(c.ServerConfig), c.Servers)
	}
	for i, lines := range c.ServerConfig {
		for _, l := range lines {
			if !strings.Contains(l, "=") || strings.ContainsAny(l, "\n\r") {
				return fmt.Errorf("%w: ServerConfig[%d] line %q is not key=value", ErrBadConfig, i, l)
			}
		}
	}
	return nil
}
