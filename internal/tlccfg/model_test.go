package tlccfg

import "testing"

func TestParseTLCOnly(t *testing.T) {
	m, err := Parse([]byte("\\* expect: pass\n\\* tlc-only: an inductive invariant from a TypeOK start\n\\* The question.\nINIT IndInit\nNEXT Next\nINVARIANT IndInv\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.TLCOnly != "an inductive invariant from a TypeOK start" || m.Description != "The question." {
		t.Errorf("TLCOnly %q, Description %q", m.TLCOnly, m.Description)
	}
	// Positive controls: a tlc-only mark without a reason, or two of them.
	for _, bad := range []string{
		"\\* expect: pass\n\\* tlc-only:\nINIT Init\nNEXT Next\n",
		"\\* expect: pass\n\\* tlc-only: a\n\\* tlc-only: b\nINIT Init\nNEXT Next\n",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse accepted %q", bad)
		}
	}
}
