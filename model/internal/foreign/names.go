package foreign

import (
	"fmt"

	"github.com/zklock/zklock/model"
)

// Names are the names TLC gives a module's actions: its own, of indices
// First on (ForeignDelete and ForeignReplace last, whose Arg is a seq),
// and those of the base spec's actions it restricts.
type Names struct {
	First      uint8
	Own        []string
	Restricted map[uint8]string
}

// own reports whether a is one of the module's own actions.
func (n *Names) own(a uint8) bool { return a >= n.First && int(a-n.First) < len(n.Own) }

// ActionName returns the name TLC gives l's action in the module; base
// names the base spec's others.
func (n *Names) ActionName(l model.Label, base func(model.Label) string) string {
	if n.own(l.Action) {
		return n.Own[l.Action-n.First]
	}
	if name, ok := n.Restricted[l.Action]; ok {
		return name
	}
	return base(l)
}

// LabelString renders l with its parameters, clients being the clients'
// names; base renders the base spec's others.
func (n *Names) LabelString(l model.Label, clients []string, base func(model.Label) string) string {
	switch {
	case n.own(l.Action) && int(l.Action-n.First) >= len(n.Own)-2:
		return fmt.Sprintf("%s(%d)", n.Own[l.Action-n.First], l.Arg)
	case n.own(l.Action):
		return fmt.Sprintf("%s(%s)", n.Own[l.Action-n.First], clients[l.Client])
	case n.Restricted[l.Action] != "" && l.Client >= 0 && int(l.Client) < len(clients):
		return fmt.Sprintf("%s(%s)", n.Restricted[l.Action], clients[l.Client])
	}
	return base(l)
}
