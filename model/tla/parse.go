package tla

import (
	"fmt"
	"strconv"
	"strings"
)

// Parse reads one value printed by TLC: integers, TRUE and FALSE, strings,
// model values, <<tuples>>, {sets}, [records |-> ...] and functions
// (k :> v @@ ...). Line breaks and indentation inside the value are
// allowed.
func Parse(s string) (Value, error) {
	p := &parser{s: s}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, p.errorf("trailing text")
	}
	return v, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) errorf(format string, args ...any) error {
	at := p.s[p.i:]
	if len(at) > 20 {
		at = at[:20] + "..."
	}
	return fmt.Errorf("tla: "+format+" at %d (%q)", append(args, p.i, at)...)
}

func (p *parser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *parser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *parser) value() (Value, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("value expected")
	}
	switch c := p.s[p.i]; {
	case strings.HasPrefix(p.s[p.i:], "<<"):
		p.i += 2
		elems, err := p.list(">>")
		return Tuple(elems), err
	case c == '{':
		p.i++
		elems, err := p.list("}")
		return Set(elems), err
	case c == '[':
		p.i++
		return p.record()
	case c == '(':
		p.i++
		return p.function()
	case c == '"':
		j := p.i + 1
		for j < len(p.s) && p.s[j] != '"' {
			if p.s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(p.s) {
			return nil, p.errorf("unterminated string")
		}
		str, err := strconv.Unquote(p.s[p.i : j+1])
		if err != nil {
			return nil, p.errorf("bad string: %v", err)
		}
		p.i = j + 1
		return Str(str), nil
	default:
		word := p.word()
		switch {
		case word == "":
			return nil, p.errorf("value expected")
		case word == "TRUE":
			return Bool(true), nil
		case word == "FALSE":
			return Bool(false), nil
		}
		if n, err := strconv.ParseInt(word, 10, 64); err == nil {
			return Int(n), nil
		}
		return ModelValue(word), nil
	}
}

func (p *parser) word() string {
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) {
		c := p.s[j]
		if c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			j++
			continue
		}
		break
	}
	w := p.s[p.i:j]
	if w == "-" {
		return ""
	}
	p.i = j
	return w
}

// list parses "a, b, c" up to and including close.
func (p *parser) list(close string) ([]Value, error) {
	var out []Value
	if p.eat(close) {
		return out, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		if p.eat(close) {
			return out, nil
		}
		if !p.eat(",") {
			return nil, p.errorf("expected , or %s", close)
		}
	}
}

func (p *parser) record() (Value, error) {
	var r Record
	if p.eat("]") {
		return r, nil
	}
	for {
		p.space()
		name := p.word()
		if name == "" || !p.eat("|->") {
			return nil, p.errorf("expected field |-> value")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		r = append(r, Field{Name: name, Value: v})
		if p.eat("]") {
			return r, nil
		}
		if !p.eat(",") {
			return nil, p.errorf("expected , or ]")
		}
	}
}

func (p *parser) function() (Value, error) {
	var f Func
	for {
		k, err := p.value()
		if err != nil {
			return nil, err
		}
		if !p.eat(":>") {
			return nil, p.errorf("expected :>")
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		f = append(f, Pair{Key: k, Value: v})
		if p.eat(")") {
			return f, nil
		}
		if !p.eat("@@") {
			return nil, p.errorf("expected @@ or )")
		}
	}
}
