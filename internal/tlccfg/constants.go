package tlccfg

import (
	"fmt"
	"strings"
)

// parseConstants parses the text of a config's CONSTANT(S) sections: a
// sequence of `Name = Value` and `Name <- Op` assignments, where a value is
// an integer, TRUE, FALSE, a string, a model value, or a set {...} or tuple
// <<...>> of values; `Name <- [Module] Op` overrides the definition Name of
// the module Module (an INSTANCEd or EXTENDed one) by Op of the root
// module, as TLC does.
func parseConstants(text string) ([]Constant, error) {
	toks, err := tokenizeConstants(text)
	if err != nil {
		return nil, err
	}
	var out []Constant
	for i := 0; i < len(toks); {
		name := toks[i]
		if !isIdent(name) {
			return nil, fmt.Errorf("CONSTANTS: expected a constant name, got %q", name)
		}
		if i+1 >= len(toks) {
			return nil, fmt.Errorf("CONSTANTS: %s has no value", name)
		}
		switch toks[i+1] {
		case "<-":
			mod := ""
			j := i + 2
			if j+2 < len(toks) && toks[j] == "[" && isIdent(toks[j+1]) && toks[j+2] == "]" {
				mod, j = toks[j+1], j+3
			}
			if j >= len(toks) || !isIdent(toks[j]) {
				return nil, fmt.Errorf("CONSTANTS: %s <- needs an operator name", name)
			}
			out = append(out, Constant{Name: name, Value: toks[j], Subst: true, Module: mod})
			i = j + 1
		case "=":
			v, next, err := parseConstValue(toks, i+2)
			if err != nil {
				return nil, fmt.Errorf("CONSTANTS: %s: %w", name, err)
			}
			out = append(out, Constant{Name: name, Value: v})
			i = next
		default:
			return nil, fmt.Errorf("CONSTANTS: expected = or <- after %s, got %q", name, toks[i+1])
		}
	}
	return out, nil
}

// parseConstValue parses one value starting at toks[i]; it returns the
// value's normalised text and the index after it.
func parseConstValue(toks []string, i int) (string, int, error) {
	if i >= len(toks) {
		return "", i, fmt.Errorf("missing value")
	}
	open := toks[i]
	var close string
	switch open {
	case "{":
		close = "}"
	case "<<":
		close = ">>"
	default:
		if !isIdent(open) && !strings.HasPrefix(open, `"`) {
			return "", i, fmt.Errorf("unexpected %q", open)
		}
		return open, i + 1, nil
	}
	var elems []string
	i++
	if i < len(toks) && toks[i] == close {
		return open + close, i + 1, nil
	}
	for {
		v, next, err := parseConstValue(toks, i)
		if err != nil {
			return "", next, err
		}
		elems = append(elems, v)
		if next >= len(toks) {
			return "", next, fmt.Errorf("unterminated %s", open)
		}
		switch toks[next] {
		case ",":
			i = next + 1
		case close:
			return open + strings.Join(elems, ", ") + close, next + 1, nil
		default:
			return "", next, fmt.Errorf("expected , or %s, got %q", close, toks[next])
		}
	}
}

// tokenizeConstants splits constant text into identifiers and numbers,
// strings, and the punctuation = <- { } , << >>.
func tokenizeConstants(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("CONSTANTS: unterminated string")
			}
			toks = append(toks, s[i:i+j+2])
			i += j + 2
		case strings.HasPrefix(s[i:], "<-"), strings.HasPrefix(s[i:], "<<"), strings.HasPrefix(s[i:], ">>"):
			toks = append(toks, s[i:i+2])
			i += 2
		case c == '=' || c == '{' || c == '}' || c == ',' || c == '[' || c == ']':
			toks = append(toks, s[i:i+1])
			i++
		case identByte(c) || c == '-':
			j := i + 1
			for j < len(s) && identByte(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			return nil, fmt.Errorf("CONSTANTS: unexpected character %q", c)
		}
	}
	return toks, nil
}

func identByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(t string) bool {
	if t == "" {
		return false
	}
	if t[0] == '-' {
		t = t[1:]
		if t == "" {
			return false
		}
	}
	for i := 0; i < len(t); i++ {
		if !identByte(t[i]) {
			return false
		}
	}
	return true
}
