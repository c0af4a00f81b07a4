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

func TestParseTLCDeep(t *testing.T) {
	m, err := Parse([]byte("\\* expect: pass\n\\* tlc: deep 536451 2176030 25\nSPECIFICATION Spec\nINVARIANT Inv\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Recorded{536451, 2176030, 25}); !m.TLCDeep || m.Recorded != want || m.Deep {
		t.Errorf("TLCDeep %v, Recorded %+v, Deep %v; want true, %+v, false", m.TLCDeep, m.Recorded, m.Deep, want)
	}
	// Positive controls: a recorded result of the wrong shape, or on a
	// config that is not a passing one of the CI set the model explores.
	for _, bad := range []string{
		"\\* expect: pass\n\\* tlc: deep 536451 2176030\nSPECIFICATION Spec\nINVARIANT Inv\n",
		"\\* expect: pass\n\\* tlc: shallow 1 2 3\nSPECIFICATION Spec\nINVARIANT Inv\n",
		"\\* expect: violation Inv\n\\* tlc: deep 1 2 3\nSPECIFICATION Spec\nINVARIANT Inv\n",
		"\\* expect: pass\n\\* deep\n\\* tlc: deep 1 2 3\nSPECIFICATION Spec\nINVARIANT Inv\n",
		"\\* expect: pass\n\\* tlc-only: why\n\\* tlc: deep 1 2 3\nSPECIFICATION Spec\nINVARIANT Inv\n",
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse accepted %q", bad)
		}
	}
}
